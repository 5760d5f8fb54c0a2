/* chrono-efficiency-view.c: how close each operator ran to the device's
 * limit, as a sortable table beside the timeline
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "chrono-efficiency-item.h"
#include "chrono-efficiency-view.h"
#include "chrono-format.h"

/* The first calls shown zoomed: enough to see a pattern. */
#define ZOOM_CALLS 4

struct _ChronoEfficiencyView
{
  GtkWidget       parent_instance;

  ChronoTimeline *timeline;
  ChronoAnalysis *analysis;
  GListStore     *store;        /* ChronoEfficiencyItem */
  GtkSingleSelection *selection;  /* the sorted store, once the table has shown */

  GtkWidget      *content;
  GtkLabel       *notes_label;
  GtkColumnView  *column_view;
};

G_DEFINE_FINAL_TYPE (ChronoEfficiencyView, chrono_efficiency_view, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_TIMELINE,
  PROP_ANALYSIS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* The numbers first: the shape is long, and last in a narrow panel. */
typedef enum {
  COLUMN_OP,
  COLUMN_CALLS,
  COLUMN_GPU_TIME,
  COLUMN_TFLOPS,
  COLUMN_TBPS,
  COLUMN_ROOFLINE,
  COLUMN_BOUND,
  COLUMN_SHAPE,
  N_COLUMNS
} Column;

static const struct {
  const char *title;
  gboolean    numeric;
  gboolean    expand;
} columns[N_COLUMNS] = {
  [COLUMN_OP] = { N_("Operator"), FALSE, FALSE },
  [COLUMN_SHAPE] = { N_("Shape"), FALSE, TRUE },
  [COLUMN_CALLS] = { N_("Calls"), TRUE, FALSE },
  [COLUMN_GPU_TIME] = { N_("GPU Time"), TRUE, FALSE },
  [COLUMN_TFLOPS] = { N_("TFLOP/s"), TRUE, FALSE },
  [COLUMN_TBPS] = { N_("TB/s"), TRUE, FALSE },
  [COLUMN_ROOFLINE] = { N_("Of Roofline"), TRUE, FALSE },
  [COLUMN_BOUND] = { N_("Bound"), FALSE, FALSE },
};

static const char *
bound_label (const ChronoEfficiencyRow *r)
{
  switch (r->bound)
    {
    case CHRONO_BOUND_COMPUTE:
      return _("compute");
    case CHRONO_BOUND_MEMORY:
      return _("memory");
    default:
      return _("no peaks");
    }
}

static char *
cell_text (const ChronoEfficiencyRow *r,
           Column                     column)
{
  switch (column)
    {
    case COLUMN_OP:
      /* The tooltip has it whole. */
      return chrono_format_short_name (r->op, CHRONO_SHORT_NAME_WIDTH);
    case COLUMN_SHAPE:
      return g_strdup (r->input_dims);
    case COLUMN_CALLS:
      return chrono_format_count (r->count);
    case COLUMN_GPU_TIME:
      return chrono_format_duration (r->gpu_time_ns);
    case COLUMN_TFLOPS:
      return g_strdup_printf ("%.1f", r->achieved_tflops);
    case COLUMN_TBPS:
      return g_strdup_printf ("%.2f", r->achieved_tbps);
    case COLUMN_ROOFLINE:
      /* TRANSLATORS: a share of the time the operator would take at the device's peaks */
      return r->has_roofline ? g_strdup_printf (_("%.0f %%"), 100 * r->roofline_share) : g_strdup ("–");
    case COLUMN_BOUND:
      return g_strdup (bound_label (r));
    default:
      g_return_val_if_reached (NULL);
    }
}

/* What a column sorts by; rows without a roofline sort below the rest. */
static gdouble
sort_key (const ChronoEfficiencyRow *r,
          Column                     column)
{
  switch (column)
    {
    case COLUMN_CALLS:
      return (gdouble) r->count;
    case COLUMN_GPU_TIME:
      return (gdouble) r->gpu_time_ns;
    case COLUMN_TFLOPS:
      return r->achieved_tflops;
    case COLUMN_TBPS:
      return r->achieved_tbps;
    case COLUMN_ROOFLINE:
      return r->has_roofline ? r->roofline_share : -1;
    case COLUMN_BOUND:
      return r->bound;
    default:
      return 0;
    }
}

static int
compare_rows (gconstpointer a,
              gconstpointer b,
              gpointer      user_data)
{
  Column column = GPOINTER_TO_UINT (user_data);
  const ChronoEfficiencyRow *x = chrono_efficiency_item_get_row ((ChronoEfficiencyItem *) a);
  const ChronoEfficiencyRow *y = chrono_efficiency_item_get_row ((ChronoEfficiencyItem *) b);
  gdouble kx, ky;

  if (column == COLUMN_OP)
    return g_strcmp0 (x->op, y->op);
  if (column == COLUMN_SHAPE)
    return g_strcmp0 (x->input_dims, y->input_dims);
  kx = sort_key (x, column);
  ky = sort_key (y, column);
  return kx < ky ? GTK_ORDERING_SMALLER : kx > ky ? GTK_ORDERING_LARGER : GTK_ORDERING_EQUAL;
}

static void
setup_cell (GtkSignalListItemFactory *factory,
            GtkListItem              *item,
            gpointer                  user_data)
{
  Column column = GPOINTER_TO_UINT (user_data);
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), columns[column].numeric ? 1 : 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), column == COLUMN_SHAPE ? PANGO_ELLIPSIZE_END : PANGO_ELLIPSIZE_NONE);
  if (columns[column].numeric)
    gtk_widget_add_css_class (label, "numeric");
  gtk_list_item_set_child (item, label);
}

static void
bind_cell (GtkSignalListItemFactory *factory,
           GtkListItem              *item,
           gpointer                  user_data)
{
  Column column = GPOINTER_TO_UINT (user_data);
  const ChronoEfficiencyRow *r = chrono_efficiency_item_get_row (gtk_list_item_get_item (item));
  g_autofree char *text = cell_text (r, column);
  GtkWidget *label = gtk_list_item_get_child (item);

  gtk_label_set_text (GTK_LABEL (label), text);
  /* The whole shape and types, which the cell cuts. */
  if (column == COLUMN_SHAPE || column == COLUMN_OP)
    {
      g_autofree char *tip = g_strdup_printf ("%s\n%s\n%s", r->op, r->input_dims, r->input_types);
      gtk_widget_set_tooltip_text (label, tip);
    }
}

static void
fill (ChronoEfficiencyView *self)
{
  const char * const *notes;
  g_autoptr(GString) text = g_string_new (NULL);

  g_list_store_remove_all (self->store);
  if (self->analysis == NULL)
    {
      gtk_widget_set_visible (GTK_WIDGET (self->notes_label), FALSE);
      return;
    }
  for (guint i = 0; i < chrono_analysis_get_n_efficiency (self->analysis); i++)
    {
      g_autoptr(ChronoEfficiencyItem) item = chrono_efficiency_item_new (self->analysis, i);
      g_list_store_append (self->store, item);
    }
  notes = chrono_analysis_get_efficiency_notes (self->analysis);
  for (guint i = 0; notes[i]; i++)
    g_string_append_printf (text, "%s%s", i ? "\n" : "", notes[i]);
  if (text->len == 0 && chrono_analysis_get_n_efficiency (self->analysis) > 0)
    g_string_append (text, _("GPU time of each operator and input shape against the roofline at the device’s peaks; "
                             "activate a row to see its calls."));
  gtk_label_set_text (self->notes_label, text->str);
  gtk_widget_set_visible (GTK_WIDGET (self->notes_label), text->len > 0);
}

void
chrono_efficiency_view_activate_row (ChronoEfficiencyView *self,
                                     guint                 position)
{
  g_autoptr(ChronoEfficiencyItem) item = NULL;
  const ChronoEfficiencyRow *r;
  gint64 start, end;
  guint last;

  g_return_if_fail (CHRONO_IS_EFFICIENCY_VIEW (self));

  if (self->selection == NULL || self->timeline == NULL ||
      (item = g_list_model_get_item (G_LIST_MODEL (self->selection), position)) == NULL)
    return;
  r = chrono_efficiency_item_get_row (item);
  gtk_single_selection_set_selected (self->selection, position);
  /* The app analyses one trace: its calls are the timeline's spans. */
  if (r->trace != 0 || r->n_calls == 0)
    return;
  chrono_timeline_set_path (self->timeline, r->calls, r->n_calls);
  /* The first few calls and their device work, wide enough to compare. */
  last = MIN (r->n_calls, ZOOM_CALLS) - 1;
  start = chrono_trace_get_track (chrono_timeline_get_trace (self->timeline), r->calls[0].track)->start[r->calls[0].index];
  end = chrono_track_get_end (chrono_trace_get_track (chrono_timeline_get_trace (self->timeline), r->calls[last].track),
                              r->calls[last].index);
  for (guint i = 0; i < r->n_intervals && r->intervals[i].start_ns < end; i++)
    end = MAX (end, r->intervals[i].end_ns);
  start = MIN (start, r->n_intervals ? r->intervals[0].start_ns : start);
  chrono_viewport_zoom_to_range (chrono_timeline_get_viewport (self->timeline), start - (end - start) / 8,
                                 end + (end - start) / 8);
  chrono_timeline_scroll_to_track (self->timeline, r->calls[0].track);
  chrono_timeline_select (self->timeline, &r->calls[0]);
  g_signal_emit_by_name (self->timeline, "span-activated", r->calls[0].track, r->calls[0].index);
}

static void
activate_cb (GtkColumnView        *view,
             guint                 position,
             ChronoEfficiencyView *self)
{
  chrono_efficiency_view_activate_row (self, position);
}

/* The columns are made when the table first shows: a page that is never
 * opened costs nothing when a trace loads. */
static void
chrono_efficiency_view_map (GtkWidget *widget)
{
  ChronoEfficiencyView *self = CHRONO_EFFICIENCY_VIEW (widget);
  g_autoptr(GtkSortListModel) sorted = NULL;
  GtkColumnViewColumn *by_time = NULL;

  if (self->selection == NULL)
    {
      for (guint c = 0; c < N_COLUMNS; c++)
        {
          GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
          g_autoptr(GtkColumnViewColumn) column = NULL;

          g_signal_connect (factory, "setup", G_CALLBACK (setup_cell), GUINT_TO_POINTER (c));
          g_signal_connect (factory, "bind", G_CALLBACK (bind_cell), GUINT_TO_POINTER (c));
          column = gtk_column_view_column_new (_(columns[c].title), factory);
          gtk_column_view_column_set_expand (column, columns[c].expand);
          gtk_column_view_column_set_resizable (column, TRUE);
          gtk_column_view_column_set_sorter (column, GTK_SORTER (gtk_custom_sorter_new (compare_rows, GUINT_TO_POINTER (c), NULL)));
          gtk_column_view_append_column (self->column_view, column);
          if (c == COLUMN_GPU_TIME)
            by_time = column;
        }
      sorted = gtk_sort_list_model_new (G_LIST_MODEL (g_object_ref (self->store)),
                                        g_object_ref (gtk_column_view_get_sorter (self->column_view)));
      self->selection = gtk_single_selection_new (G_LIST_MODEL (g_steal_pointer (&sorted)));
      gtk_single_selection_set_autoselect (self->selection, FALSE);
      gtk_single_selection_set_can_unselect (self->selection, TRUE);
      gtk_column_view_set_model (self->column_view, GTK_SELECTION_MODEL (self->selection));
      gtk_column_view_sort_by_column (self->column_view, by_time, GTK_SORT_DESCENDING);
    }
  GTK_WIDGET_CLASS (chrono_efficiency_view_parent_class)->map (widget);
}

static void
chrono_efficiency_view_dispose (GObject *object)
{
  ChronoEfficiencyView *self = CHRONO_EFFICIENCY_VIEW (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), CHRONO_TYPE_EFFICIENCY_VIEW);
  g_clear_object (&self->selection);
  g_clear_object (&self->store);
  g_clear_object (&self->analysis);
  g_clear_object (&self->timeline);

  G_OBJECT_CLASS (chrono_efficiency_view_parent_class)->dispose (object);
}

static void
chrono_efficiency_view_get_property (GObject    *object,
                                     guint       prop_id,
                                     GValue     *value,
                                     GParamSpec *pspec)
{
  ChronoEfficiencyView *self = CHRONO_EFFICIENCY_VIEW (object);

  switch (prop_id)
    {
    case PROP_TIMELINE:
      g_value_set_object (value, self->timeline);
      break;
    case PROP_ANALYSIS:
      g_value_set_object (value, self->analysis);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
chrono_efficiency_view_set_property (GObject      *object,
                                     guint         prop_id,
                                     const GValue *value,
                                     GParamSpec   *pspec)
{
  ChronoEfficiencyView *self = CHRONO_EFFICIENCY_VIEW (object);

  switch (prop_id)
    {
    case PROP_TIMELINE:
      chrono_efficiency_view_set_timeline (self, g_value_get_object (value));
      break;
    case PROP_ANALYSIS:
      chrono_efficiency_view_set_analysis (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
chrono_efficiency_view_class_init (ChronoEfficiencyViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = chrono_efficiency_view_dispose;
  object_class->get_property = chrono_efficiency_view_get_property;
  object_class->set_property = chrono_efficiency_view_set_property;
  widget_class->map = chrono_efficiency_view_map;

  properties[PROP_TIMELINE] =
    g_param_spec_object ("timeline", NULL, NULL, CHRONO_TYPE_TIMELINE,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_ANALYSIS] =
    g_param_spec_object ("analysis", NULL, NULL, CHRONO_TYPE_ANALYSIS,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "efficiencyview");
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/chronoscope/Chronoscope/chrono-efficiency-view.ui");
  gtk_widget_class_bind_template_child (widget_class, ChronoEfficiencyView, content);
  gtk_widget_class_bind_template_child (widget_class, ChronoEfficiencyView, notes_label);
  gtk_widget_class_bind_template_child (widget_class, ChronoEfficiencyView, column_view);
}

static void
chrono_efficiency_view_init (ChronoEfficiencyView *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->store = g_list_store_new (CHRONO_TYPE_EFFICIENCY_ITEM);
  g_signal_connect (self->column_view, "activate", G_CALLBACK (activate_cb), self);
}

GtkWidget *
chrono_efficiency_view_new (void)
{
  return g_object_new (CHRONO_TYPE_EFFICIENCY_VIEW, NULL);
}

void
chrono_efficiency_view_set_timeline (ChronoEfficiencyView *self,
                                     ChronoTimeline       *timeline)
{
  g_return_if_fail (CHRONO_IS_EFFICIENCY_VIEW (self));
  g_return_if_fail (timeline == NULL || CHRONO_IS_TIMELINE (timeline));

  if (g_set_object (&self->timeline, timeline))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TIMELINE]);
}

ChronoTimeline *
chrono_efficiency_view_get_timeline (ChronoEfficiencyView *self)
{
  g_return_val_if_fail (CHRONO_IS_EFFICIENCY_VIEW (self), NULL);
  return self->timeline;
}

void
chrono_efficiency_view_set_analysis (ChronoEfficiencyView *self,
                                     ChronoAnalysis       *analysis)
{
  g_return_if_fail (CHRONO_IS_EFFICIENCY_VIEW (self));
  g_return_if_fail (analysis == NULL || CHRONO_IS_ANALYSIS (analysis));

  if (!g_set_object (&self->analysis, analysis))
    return;
  fill (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ANALYSIS]);
}

ChronoAnalysis *
chrono_efficiency_view_get_analysis (ChronoEfficiencyView *self)
{
  g_return_val_if_fail (CHRONO_IS_EFFICIENCY_VIEW (self), NULL);
  return self->analysis;
}
