/* chrono-neuron-ops-view.c: the NeuronCores' operators
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "chrono-format.h"
#include "chrono-neuron-op-item.h"
#include "chrono-neuron-ops-view.h"

typedef enum {
  COLUMN_NAME,
  COLUMN_CORE,
  COLUMN_INSTRUCTIONS,
  COLUMN_TENSOR,
  COLUMN_HFU,
  COLUMN_MFU,
  COLUMN_BYTES,
  COLUMN_LOST,
  N_COLUMNS
} Column;

static const char *const column_titles[N_COLUMNS] = {
  N_("Operator"), N_("Core"), N_("Instructions"), N_("Tensor Time"), N_("HFU"), N_("MFU"), N_("HBM Bytes"), N_("Time Lost"),
};

struct _ChronoNeuronOpsView
{
  GtkWidget            parent_instance;

  ChronoFindingsPanel *panel;
  ChronoNeuronOpKind   level;
  guint                core;        /* shown, or CHRONO_NEURON_OPS_VIEW_ALL_CORES */
  GListStore          *store;       /* ChronoNeuronOpItem of the level */
  GtkFilterListModel  *filtered;
  GtkSortListModel    *sorted;
  GtkCustomFilter     *filter;
  GArray              *instructions; /* ChronoSpanRef of the chosen row, by start */
  guint                current;

  GtkDropDown         *core_dropdown;
  GtkDropDown         *level_dropdown;
  GtkSearchEntry      *filter_entry;
  GtkLabel            *count_label;
  GtkColumnView       *column_view;
  GtkColumnViewColumn *core_column;
  GtkStack            *state_stack;
  GPtrArray           *all;         /* every ChronoNeuronOpItem, NULL while they are built */
  GCancellable        *cancellable; /* of their building */
};

G_DEFINE_FINAL_TYPE (ChronoNeuronOpsView, chrono_neuron_ops_view, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_READY,
  N_PROPS
};

enum {
  TIMELINE_REQUESTED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static ChronoTimeline *
dup_timeline (ChronoNeuronOpsView *self)
{
  ChronoTimeline *timeline = NULL;

  g_object_get (self->panel, "timeline", &timeline, NULL);
  return timeline;
}

/* -------------------------------------------------------------------- */
/* Rows                                                                 */

static const ChronoNeuronOp *
op_of (gpointer item)
{
  return chrono_neuron_op_item_get_op (CHRONO_NEURON_OP_ITEM (item));
}

static char *
cell_text (gpointer item,
           Column   column)
{
  const ChronoNeuronOp *op = op_of (item);

  switch (column)
    {
    case COLUMN_NAME:
      return g_strdup (op->name);
    case COLUMN_CORE:
      return g_strdup (chrono_neuron_op_item_get_core_name (item));
    case COLUMN_INSTRUCTIONS:
      return chrono_format_count (op->instructions);
    case COLUMN_TENSOR:
      return chrono_format_duration (op->tensor_ns);
    case COLUMN_HFU:
      return isfinite (op->hfu_percent) ? g_strdup_printf (_("%.1f %%"), op->hfu_percent) : g_strdup ("—");
    case COLUMN_MFU:
      return isfinite (op->mfu_percent) ? g_strdup_printf (_("%.1f %%"), op->mfu_percent) : g_strdup ("—");
    case COLUMN_BYTES:
      return chrono_format_bytes ((guint64) op->hbm_bytes);
    case COLUMN_LOST:
    default:
      return op->lost_ns >= 0 ? chrono_format_duration (op->lost_ns) : g_strdup ("—");
    }
}

static gdouble
cell_number (gpointer item,
             Column   column)
{
  const ChronoNeuronOp *op = op_of (item);

  switch (column)
    {
    case COLUMN_CORE:
      return chrono_neuron_op_item_get_core (item);
    case COLUMN_INSTRUCTIONS:
      return (gdouble) op->instructions;
    case COLUMN_TENSOR:
      return (gdouble) op->tensor_ns;
    case COLUMN_HFU:
      return isfinite (op->hfu_percent) ? op->hfu_percent : -1;
    case COLUMN_MFU:
      return isfinite (op->mfu_percent) ? op->mfu_percent : -1;
    case COLUMN_BYTES:
      return op->hbm_bytes;
    case COLUMN_LOST:
    case COLUMN_NAME:
    default:
      return (gdouble) op->lost_ns;
    }
}

static int
compare_cells (gconstpointer a,
               gconstpointer b,
               gpointer      data)
{
  Column column = GPOINTER_TO_UINT (data);
  gdouble x, y;

  if (column == COLUMN_NAME)
    return g_utf8_collate (op_of ((gpointer) a)->name, op_of ((gpointer) b)->name);
  x = cell_number ((gpointer) a, column);
  y = cell_number ((gpointer) b, column);
  return (x > y) - (x < y);
}

static void
setup_cell (GtkSignalListItemFactory *factory,
            GtkListItem              *item,
            gpointer                  data)
{
  GtkWidget *label = gtk_label_new (NULL);

  gboolean text = GPOINTER_TO_UINT (data) == COLUMN_NAME || GPOINTER_TO_UINT (data) == COLUMN_CORE;

  gtk_label_set_xalign (GTK_LABEL (label), text ? 0 : 1);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_MIDDLE);
  if (!text)
    gtk_widget_add_css_class (label, "numeric");
  gtk_list_item_set_child (item, label);
}

static void
bind_cell (GtkSignalListItemFactory *factory,
           GtkListItem              *item,
           gpointer                  data)
{
  g_autofree char *text = cell_text (gtk_list_item_get_item (item), GPOINTER_TO_UINT (data));

  gtk_label_set_text (GTK_LABEL (gtk_list_item_get_child (item)), text);
  if (GPOINTER_TO_UINT (data) == COLUMN_NAME)
    gtk_widget_set_tooltip_text (gtk_list_item_get_child (item), text);
}

static gboolean
filter_row (gpointer item,
            gpointer data)
{
  ChronoNeuronOpsView *self = data;
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->filter_entry));
  g_autofree char *needle = NULL, *name = NULL;

  if (text[0] == '\0')
    return TRUE;
  needle = g_utf8_casefold (text, -1);
  name = g_utf8_casefold (op_of (item)->name, -1);
  return strstr (name, needle) != NULL;
}

static void
update_count (ChronoNeuronOpsView *self)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->filtered));
  /* Translators: how many operators the table shows */
  g_autofree char *text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u operator", "%u operators", n), n);

  gtk_label_set_text (self->count_label, text);
}

/* The analysis's NeuronCores, in the order of its operator tables. */
static GPtrArray *
dup_cores (ChronoNeuronOpsView *self)
{
  ChronoAnalysis *analysis = chrono_findings_panel_get_analysis (self->panel);

  return analysis != NULL ? chrono_neuron_metrics_for_analysis (analysis) : g_ptr_array_new ();
}

static const char *
core_name (ChronoNeuronMetrics *metrics)
{
  ChronoTrace *trace = chrono_neuron_metrics_get_rank (metrics)->trace;

  return chrono_trace_get_string (trace, chrono_trace_get_process (trace, chrono_neuron_metrics_get_device (metrics)->process)->name);
}

/* The rows of the chosen level and core, from all of them. */
static void
fill (ChronoNeuronOpsView *self)
{
  g_autoptr(GPtrArray) items = g_ptr_array_new ();

  g_array_set_size (self->instructions, 0);
  for (guint i = 0; self->all != NULL && i < self->all->len; i++)
    {
      ChronoNeuronOpItem *item = g_ptr_array_index (self->all, i);

      if (chrono_neuron_op_item_get_op (item)->kind == self->level &&
          (self->core == CHRONO_NEURON_OPS_VIEW_ALL_CORES || self->core == chrono_neuron_op_item_get_core (item)))
        g_ptr_array_add (items, item);
    }
  g_list_store_splice (self->store, 0, g_list_model_get_n_items (G_LIST_MODEL (self->store)), items->pdata, items->len);
  update_count (self);
}

/* Every core's operator table, at both levels, on a worker thread: the
 * tables take longer than a frame on a large profile. */
static void
build_rows (GTask        *task,
            gpointer      source,
            gpointer      data,
            GCancellable *cancellable)
{
  ChronoAnalysis *analysis = data;
  g_autoptr(GPtrArray) cores = chrono_neuron_metrics_for_analysis (analysis);
  g_autoptr(GPtrArray) all = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint c = 0; c < cores->len && !g_cancellable_is_cancelled (cancellable); c++)
    {
      g_autoptr(ChronoNeuronOpTable) table = chrono_analysis_get_neuron_ops (analysis, c);

      for (guint i = 0; table != NULL && i < chrono_neuron_op_table_get_n_ops (table); i++)
        g_ptr_array_add (all, chrono_neuron_op_item_new (chrono_neuron_op_table_get_op (table, i), c,
                                                         core_name (g_ptr_array_index (cores, c))));
    }
  g_task_return_pointer (task, g_steal_pointer (&all), (GDestroyNotify) g_ptr_array_unref);
}

static void
rows_built_cb (GObject      *source,
               GAsyncResult *result,
               gpointer      data)
{
  ChronoNeuronOpsView *self = CHRONO_NEURON_OPS_VIEW (source);
  GPtrArray *all = g_task_propagate_pointer (G_TASK (result), NULL);

  /* Cancelled: another analysis came, or the view went. */
  if (all == NULL)
    return;
  g_clear_pointer (&self->all, g_ptr_array_unref);
  self->all = all;
  gtk_stack_set_visible_child_name (self->state_stack, "done");
  fill (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_READY]);
}

/* A choice of core when the profile has more than one, and the column
 * that tells their rows apart; the rows built again. */
static void
analysis_changed_cb (ChronoNeuronOpsView *self)
{
  ChronoAnalysis *analysis = chrono_findings_panel_get_analysis (self->panel);
  g_autoptr(GPtrArray) cores = dup_cores (self);
  g_autoptr(GTask) task = NULL;
  g_autoptr(GtkStringList) names = gtk_string_list_new (NULL);
  /* A new model resets the dropdown's choice. */
  guint core = self->core != CHRONO_NEURON_OPS_VIEW_ALL_CORES && self->core < cores->len ? self->core
                                                                                        : CHRONO_NEURON_OPS_VIEW_ALL_CORES;

  gtk_string_list_append (names, _("All cores"));
  for (guint c = 0; c < cores->len; c++)
    gtk_string_list_append (names, core_name (g_ptr_array_index (cores, c)));
  gtk_drop_down_set_model (self->core_dropdown, G_LIST_MODEL (names));
  gtk_widget_set_visible (GTK_WIDGET (self->core_dropdown), cores->len > 1);
  gtk_column_view_column_set_visible (self->core_column, cores->len > 1);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  if (self->all != NULL)
    {
      g_clear_pointer (&self->all, g_ptr_array_unref);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_READY]);
    }
  chrono_neuron_ops_view_set_core (self, core);
  gtk_stack_set_visible_child_name (self->state_stack, "building");
  if (analysis == NULL)
    return;
  self->cancellable = g_cancellable_new ();
  task = g_task_new (self, self->cancellable, rows_built_cb, NULL);
  g_task_set_source_tag (task, analysis_changed_cb);
  g_task_set_task_data (task, g_object_ref (analysis), g_object_unref);
  g_task_run_in_thread (task, build_rows);
}

gboolean
chrono_neuron_ops_view_get_ready (ChronoNeuronOpsView *self)
{
  g_return_val_if_fail (CHRONO_IS_NEURON_OPS_VIEW (self), FALSE);
  return self->all != NULL;
}

/* -------------------------------------------------------------------- */
/* On the timeline                                                      */

static void
select_current (ChronoNeuronOpsView *self)
{
  g_autoptr(ChronoTimeline) timeline = dup_timeline (self);

  if (self->current >= self->instructions->len)
    return;
  chrono_timeline_select (timeline, &g_array_index (self->instructions, ChronoSpanRef, self->current));
  chrono_timeline_reveal_span (timeline, g_array_index (self->instructions, ChronoSpanRef, self->current));
}

/* The instructions of ITEM's operator on its core that do FLOPs or move
 * bytes, as the metrics account for them. */
static void
find_instructions (ChronoNeuronOpsView *self,
                   gpointer             item)
{
  g_autoptr(GPtrArray) cores = dup_cores (self);
  const ChronoNeuronOp *op = op_of (item);
  guint core = chrono_neuron_op_item_get_core (item);
  ChronoNeuronMetrics *metrics;
  const ChronoNeuronInst *insts;
  guint n = 0;

  g_array_set_size (self->instructions, 0);
  if (core >= cores->len)
    return;
  metrics = g_ptr_array_index (cores, core);
  insts = chrono_neuron_metrics_get_insts (metrics, &n);
  for (guint i = 0; i < n; i++)
    {
      guint32 index = op->kind == CHRONO_NEURON_OP_HLO ? insts[i].hlo_op : insts[i].framework_op;

      if (index != G_MAXUINT32 && g_strcmp0 (chrono_neuron_metrics_op_name (metrics, index), op->name) == 0)
        g_array_append_val (self->instructions, ((ChronoSpanRef) { insts[i].track, insts[i].index }));
    }
}

void
chrono_neuron_ops_view_activate (ChronoNeuronOpsView *self,
                                 guint                position)
{
  g_autoptr(GObject) item = g_list_model_get_item (G_LIST_MODEL (self->sorted), position);
  g_autoptr(ChronoTimeline) timeline = NULL;

  g_return_if_fail (CHRONO_IS_NEURON_OPS_VIEW (self));
  if (item == NULL)
    return;
  find_instructions (self, item);
  timeline = dup_timeline (self);
  chrono_timeline_set_path (timeline, (const ChronoSpanRef *) self->instructions->data, self->instructions->len);
  self->current = 0;
  g_signal_emit (self, signals[TIMELINE_REQUESTED], 0);
  select_current (self);
}

gboolean
chrono_neuron_ops_view_show_instruction (ChronoNeuronOpsView *self,
                                         ChronoSpanRef        instruction)
{
  g_autoptr(GPtrArray) cores = dup_cores (self);
  g_autofree char *name = NULL;
  ChronoNeuronOpKind level = CHRONO_NEURON_OP_HLO;
  GListModel *rows;
  guint core = 0;

  g_return_val_if_fail (CHRONO_IS_NEURON_OPS_VIEW (self), FALSE);
  for (; core < cores->len && name == NULL; core++)
    {
      ChronoNeuronMetrics *metrics = g_ptr_array_index (cores, core);
      guint n = 0;
      const ChronoNeuronInst *insts = chrono_neuron_metrics_get_insts (metrics, &n);

      for (guint i = 0; i < n && name == NULL; i++)
        if (insts[i].track == instruction.track && insts[i].index == instruction.index)
          {
            level = insts[i].hlo_op != G_MAXUINT32 ? CHRONO_NEURON_OP_HLO : CHRONO_NEURON_OP_FRAMEWORK;
            if (insts[i].hlo_op != G_MAXUINT32 || insts[i].framework_op != G_MAXUINT32)
              name = g_strdup (chrono_neuron_metrics_op_name (metrics, level == CHRONO_NEURON_OP_HLO ? insts[i].hlo_op
                                                                                                     : insts[i].framework_op));
          }
    }
  if (name == NULL)
    return FALSE;
  /* The loop stepped past the core it found. */
  core--;
  if (self->core != CHRONO_NEURON_OPS_VIEW_ALL_CORES)
    chrono_neuron_ops_view_set_core (self, core);
  chrono_neuron_ops_view_set_level (self, level);
  gtk_editable_set_text (GTK_EDITABLE (self->filter_entry), name);
  rows = G_LIST_MODEL (self->sorted);
  for (guint r = 0; r < g_list_model_get_n_items (rows); r++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (rows, r);

      if (g_strcmp0 (op_of (item)->name, name) != 0 || chrono_neuron_op_item_get_core (CHRONO_NEURON_OP_ITEM (item)) != core)
        continue;
      gtk_selection_model_select_item (gtk_column_view_get_model (self->column_view), r, TRUE);
      chrono_neuron_ops_view_activate (self, r);
      /* From the instruction chosen, not the operator's first. */
      for (guint k = 0; k < self->instructions->len; k++)
        if (g_array_index (self->instructions, ChronoSpanRef, k).track == instruction.track &&
            g_array_index (self->instructions, ChronoSpanRef, k).index == instruction.index)
          self->current = k;
      select_current (self);
      return TRUE;
    }
  return FALSE;
}

static void
row_activated_cb (ChronoNeuronOpsView *self,
                  guint                position)
{
  chrono_neuron_ops_view_activate (self, position);
}

static void
step_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  ChronoNeuronOpsView *self = CHRONO_NEURON_OPS_VIEW (widget);
  gboolean next = g_str_equal (action_name, "ops.next-instruction");

  if (self->instructions->len == 0)
    return;
  self->current = next ? MIN (self->current + 1, self->instructions->len - 1) : (self->current > 0 ? self->current - 1 : 0);
  g_signal_emit (self, signals[TIMELINE_REQUESTED], 0);
  select_current (self);
}

const ChronoSpanRef *
chrono_neuron_ops_view_get_instructions (ChronoNeuronOpsView *self,
                                         guint               *n)
{
  g_return_val_if_fail (CHRONO_IS_NEURON_OPS_VIEW (self), NULL);
  *n = self->instructions->len;
  return (const ChronoSpanRef *) self->instructions->data;
}

/* -------------------------------------------------------------------- */
/* GObject                                                              */

void
chrono_neuron_ops_view_set_level (ChronoNeuronOpsView *self,
                                  ChronoNeuronOpKind   level)
{
  g_return_if_fail (CHRONO_IS_NEURON_OPS_VIEW (self));
  self->level = level;
  if (gtk_drop_down_get_selected (self->level_dropdown) != (guint) level)
    gtk_drop_down_set_selected (self->level_dropdown, level);
  fill (self);
}

void
chrono_neuron_ops_view_set_core (ChronoNeuronOpsView *self,
                                 guint                core)
{
  guint position = core == CHRONO_NEURON_OPS_VIEW_ALL_CORES ? 0 : core + 1;

  g_return_if_fail (CHRONO_IS_NEURON_OPS_VIEW (self));
  self->core = core;
  if (gtk_drop_down_get_selected (self->core_dropdown) != position)
    gtk_drop_down_set_selected (self->core_dropdown, position);
  fill (self);
}

GListModel *
chrono_neuron_ops_view_get_rows (ChronoNeuronOpsView *self)
{
  g_return_val_if_fail (CHRONO_IS_NEURON_OPS_VIEW (self), NULL);
  return G_LIST_MODEL (self->sorted);
}

static void
level_selected_cb (ChronoNeuronOpsView *self)
{
  if (gtk_drop_down_get_selected (self->level_dropdown) != (guint) self->level)
    chrono_neuron_ops_view_set_level (self, gtk_drop_down_get_selected (self->level_dropdown));
}

static void
core_selected_cb (ChronoNeuronOpsView *self)
{
  guint position = gtk_drop_down_get_selected (self->core_dropdown);
  guint core = position == 0 || position == GTK_INVALID_LIST_POSITION ? CHRONO_NEURON_OPS_VIEW_ALL_CORES : position - 1;

  if (core != self->core)
    chrono_neuron_ops_view_set_core (self, core);
}

static void
filter_changed_cb (ChronoNeuronOpsView *self)
{
  gtk_filter_changed (GTK_FILTER (self->filter), GTK_FILTER_CHANGE_DIFFERENT);
  update_count (self);
}

static void
add_columns (ChronoNeuronOpsView *self)
{
  for (Column c = 0; c < N_COLUMNS; c++)
    {
      GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
      GtkColumnViewColumn *column;

      g_signal_connect (factory, "setup", G_CALLBACK (setup_cell), GUINT_TO_POINTER (c));
      g_signal_connect (factory, "bind", G_CALLBACK (bind_cell), GUINT_TO_POINTER (c));
      column = gtk_column_view_column_new (_(column_titles[c]), factory);
      gtk_column_view_column_set_sorter (column, GTK_SORTER (gtk_custom_sorter_new (compare_cells, GUINT_TO_POINTER (c), NULL)));
      gtk_column_view_column_set_resizable (column, TRUE);
      gtk_column_view_column_set_expand (column, c == COLUMN_NAME);
      gtk_column_view_append_column (self->column_view, column);
      if (c == COLUMN_CORE)
        self->core_column = column;
      /* Most Tensor time first, as the library orders them. */
      if (c == COLUMN_TENSOR)
        gtk_column_view_sort_by_column (self->column_view, column, GTK_SORT_DESCENDING);
      g_object_unref (column);
    }
}

static void
chrono_neuron_ops_view_dispose (GObject *object)
{
  ChronoNeuronOpsView *self = CHRONO_NEURON_OPS_VIEW (object);
  GtkWidget *child;

  gtk_widget_dispose_template (GTK_WIDGET (self), CHRONO_TYPE_NEURON_OPS_VIEW);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->all, g_ptr_array_unref);
  g_clear_object (&self->panel);
  g_clear_object (&self->sorted);
  g_clear_object (&self->store);
  G_OBJECT_CLASS (chrono_neuron_ops_view_parent_class)->dispose (object);
}

static void
chrono_neuron_ops_view_finalize (GObject *object)
{
  ChronoNeuronOpsView *self = CHRONO_NEURON_OPS_VIEW (object);

  g_array_unref (self->instructions);
  G_OBJECT_CLASS (chrono_neuron_ops_view_parent_class)->finalize (object);
}

static void
chrono_neuron_ops_view_get_property (GObject    *object,
                                     guint       prop_id,
                                     GValue     *value,
                                     GParamSpec *pspec)
{
  ChronoNeuronOpsView *self = CHRONO_NEURON_OPS_VIEW (object);

  switch (prop_id)
    {
    case PROP_READY:
      g_value_set_boolean (value, chrono_neuron_ops_view_get_ready (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
chrono_neuron_ops_view_class_init (ChronoNeuronOpsViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = chrono_neuron_ops_view_dispose;
  object_class->finalize = chrono_neuron_ops_view_finalize;
  object_class->get_property = chrono_neuron_ops_view_get_property;

  /* The rows are built: FALSE from a new analysis until they are. */
  properties[PROP_READY] =
    g_param_spec_boolean ("ready", NULL, NULL, FALSE, G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* A row or a step chosen: the timeline shows it. */
  signals[TIMELINE_REQUESTED] = g_signal_new ("timeline-requested", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                              0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/chronoscope/Chronoscope/chrono-neuron-ops-view.ui");
  gtk_widget_class_bind_template_child (widget_class, ChronoNeuronOpsView, core_dropdown);
  gtk_widget_class_bind_template_child (widget_class, ChronoNeuronOpsView, level_dropdown);
  gtk_widget_class_bind_template_child (widget_class, ChronoNeuronOpsView, filter_entry);
  gtk_widget_class_bind_template_child (widget_class, ChronoNeuronOpsView, count_label);
  gtk_widget_class_bind_template_child (widget_class, ChronoNeuronOpsView, column_view);
  gtk_widget_class_bind_template_child (widget_class, ChronoNeuronOpsView, state_stack);
  gtk_widget_class_bind_template_callback (widget_class, row_activated_cb);
  gtk_widget_class_install_action (widget_class, "ops.previous-instruction", NULL, step_action);
  gtk_widget_class_install_action (widget_class, "ops.next-instruction", NULL, step_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Up, GDK_ALT_MASK, "ops.previous-instruction", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Down, GDK_ALT_MASK, "ops.next-instruction", NULL);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
chrono_neuron_ops_view_init (ChronoNeuronOpsView *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->instructions = g_array_new (FALSE, FALSE, sizeof (ChronoSpanRef));
  self->core = CHRONO_NEURON_OPS_VIEW_ALL_CORES;
  self->store = g_list_store_new (CHRONO_TYPE_NEURON_OP_ITEM);
  self->filter = gtk_custom_filter_new (filter_row, self, NULL);
  self->filtered = gtk_filter_list_model_new (G_LIST_MODEL (g_object_ref (self->store)), GTK_FILTER (self->filter));
  add_columns (self);
  self->sorted = gtk_sort_list_model_new (G_LIST_MODEL (self->filtered),
                                          g_object_ref (gtk_column_view_get_sorter (self->column_view)));
  gtk_column_view_set_model (self->column_view,
                             GTK_SELECTION_MODEL (gtk_single_selection_new (G_LIST_MODEL (g_object_ref (self->sorted)))));
  g_signal_connect_swapped (self->level_dropdown, "notify::selected", G_CALLBACK (level_selected_cb), self);
  g_signal_connect_swapped (self->core_dropdown, "notify::selected", G_CALLBACK (core_selected_cb), self);
  g_signal_connect_swapped (self->filter_entry, "notify::text", G_CALLBACK (filter_changed_cb), self);
}

GtkWidget *
chrono_neuron_ops_view_new (ChronoFindingsPanel *panel)
{
  ChronoNeuronOpsView *self;

  g_return_val_if_fail (CHRONO_IS_FINDINGS_PANEL (panel), NULL);
  self = g_object_new (CHRONO_TYPE_NEURON_OPS_VIEW, NULL);
  self->panel = g_object_ref (panel);
  g_signal_connect_object (panel, "notify::analysis", G_CALLBACK (analysis_changed_cb), self, G_CONNECT_SWAPPED);
  analysis_changed_cb (self);
  return GTK_WIDGET (self);
}
