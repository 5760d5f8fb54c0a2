/* chrono-diff-table.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n.h>

#include "chrono-diff-table.h"
#include "chrono-format.h"

/* The columns, left to right; each sorts by its own value. */
typedef enum {
  COLUMN_NAME,
  COLUMN_CALLS_A,
  COLUMN_CALLS_B,
  COLUMN_TIME_A,
  COLUMN_TIME_B,
  COLUMN_DELTA,
  COLUMN_DELTA_PERCENT,
  COLUMN_SIGNIFICANT,
  N_COLUMNS
} Column;

struct _ChronoDiffTable
{
  GtkWidget         parent_instance;

  ChronoComparison *comparison;
  ChronoDiffKind    kind;
  char             *filter_text;  /* folded; NULL for none */

  GtkWidget        *box;  /* the template's child, unparented on dispose */
  GtkToggleButton  *operators_button;
  GtkToggleButton  *kernels_button;
  GtkSearchEntry   *search_entry;
  GtkLabel         *count_label;
  GtkColumnView    *column_view;

  GtkCustomFilter  *filter;
  GtkFilterListModel *filtered;
  GtkSortListModel *sorted;
};

G_DEFINE_FINAL_TYPE (ChronoDiffTable, chrono_diff_table, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_COMPARISON,
  PROP_KIND,
  N_PROPS
};

enum {
  ROW_ACTIVATED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static const char *
significant_text (const ChronoCompareRow *row)
{
  if (row->match == CHRONO_COMPARE_MATCH_NONE)
    return row->a.count == 0 ? _("Only in B") : _("Only in A");
  switch (row->noise)
    {
    case CHRONO_COMPARE_NOISE_BEYOND:
      return _("Changed");
    case CHRONO_COMPARE_NOISE_WITHIN:
      return _("Within noise");
    case CHRONO_COMPARE_NOISE_UNKNOWN:
    default:
      return _("Unknown");
    }
}

static char *
cell_text (const ChronoCompareRow *row,
           Column                  column)
{
  switch (column)
    {
    case COLUMN_NAME:
      /* Kernels of two names matched through their operator show both;
       * an operator is a name and its input shapes: rows of one name
       * differ by them. The tooltip has the names whole. */
      return chrono_compare_row_label (row);
    case COLUMN_CALLS_A:
      return g_strdup_printf ("%.1f", row->a.count_per_step);
    case COLUMN_CALLS_B:
      return g_strdup_printf ("%.1f", row->b.count_per_step);
    case COLUMN_TIME_A:
      return chrono_format_duration ((gint64) llround (row->a.device_ns_per_step));
    case COLUMN_TIME_B:
      return chrono_format_duration ((gint64) llround (row->b.device_ns_per_step));
    case COLUMN_DELTA:
      return chrono_format_duration_change (row->delta_ns);
    case COLUMN_DELTA_PERCENT:
      /* Without A there is nothing to be a share of. */
      return isnan (row->delta_percent) ? g_strdup ("—") : g_strdup_printf ("%+.1f %%", row->delta_percent);
    case COLUMN_SIGNIFICANT:
      return g_strdup (significant_text (row));
    case N_COLUMNS:
    default:
      g_return_val_if_reached (NULL);
    }
}

/* Unknown noise sorts below noise, which sorts below a change. */
static int
noise_rank (const ChronoCompareRow *row)
{
  return row->noise == CHRONO_COMPARE_NOISE_BEYOND ? 2 : row->noise == CHRONO_COMPARE_NOISE_WITHIN ? 1 : 0;
}

static int
compare_doubles (double a,
                 double b)
{
  /* NAN (no A to be a share of) sorts first, below every number. */
  if (isnan (a) || isnan (b))
    return isnan (a) - isnan (b) ? (isnan (a) ? -1 : 1) : 0;
  return (a > b) - (a < b);
}

static int
compare_rows_cb (gconstpointer a,
                 gconstpointer b,
                 gpointer      user_data)
{
  const ChronoCompareRow *x = chrono_diff_row_get_row ((ChronoDiffRow *) a);
  const ChronoCompareRow *y = chrono_diff_row_get_row ((ChronoDiffRow *) b);
  int order;

  switch ((Column) GPOINTER_TO_INT (user_data))
    {
    case COLUMN_NAME:
      order = g_utf8_collate (x->name, y->name);
      if (order == 0)
        order = g_strcmp0 (x->shapes, y->shapes);
      break;
    case COLUMN_CALLS_A:
      order = compare_doubles (x->a.count_per_step, y->a.count_per_step);
      break;
    case COLUMN_CALLS_B:
      order = compare_doubles (x->b.count_per_step, y->b.count_per_step);
      break;
    case COLUMN_TIME_A:
      order = compare_doubles (x->a.device_ns_per_step, y->a.device_ns_per_step);
      break;
    case COLUMN_TIME_B:
      order = compare_doubles (x->b.device_ns_per_step, y->b.device_ns_per_step);
      break;
    case COLUMN_DELTA:
      order = compare_doubles (x->delta_ns, y->delta_ns);
      break;
    case COLUMN_DELTA_PERCENT:
      order = compare_doubles (x->delta_percent, y->delta_percent);
      break;
    case COLUMN_SIGNIFICANT:
      order = noise_rank (x) - noise_rank (y);
      break;
    case N_COLUMNS:
    default:
      g_return_val_if_reached (0);
    }
  /* Ties keep the comparison's order: the largest delta first. */
  if (order == 0)
    order = (int) chrono_diff_row_get_index ((ChronoDiffRow *) a) - (int) chrono_diff_row_get_index ((ChronoDiffRow *) b);
  return order < 0 ? GTK_ORDERING_SMALLER : order > 0 ? GTK_ORDERING_LARGER : GTK_ORDERING_EQUAL;
}

static gboolean
contains_folded (const char *text,
                 const char *folded_needle)
{
  g_autofree char *folded = text != NULL ? g_utf8_casefold (text, -1) : NULL;

  return folded != NULL && strstr (folded, folded_needle) != NULL;
}

static gboolean
filter_cb (gpointer item,
           gpointer user_data)
{
  ChronoDiffTable *self = user_data;
  const ChronoCompareRow *row = chrono_diff_row_get_row (item);

  if (self->filter_text == NULL)
    return TRUE;
  return contains_folded (row->name, self->filter_text) || contains_folded (row->b.name, self->filter_text) ||
         contains_folded (row->op, self->filter_text);
}

static void
setup_cell_cb (GtkSignalListItemFactory *factory,
               GtkListItem              *item,
               gpointer                  user_data)
{
  Column column = GPOINTER_TO_INT (user_data);
  GtkWidget *label = gtk_label_new (NULL);

  if (column == COLUMN_NAME)
    {
      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
      gtk_label_set_width_chars (GTK_LABEL (label), 36);
    }
  else
    {
      gtk_label_set_xalign (GTK_LABEL (label), column == COLUMN_SIGNIFICANT ? 0 : 1);
      gtk_widget_add_css_class (label, "numeric");
    }
  gtk_list_item_set_child (item, label);
}

static void
bind_cell_cb (GtkSignalListItemFactory *factory,
              GtkListItem              *item,
              gpointer                  user_data)
{
  Column column = GPOINTER_TO_INT (user_data);
  const ChronoCompareRow *row = chrono_diff_row_get_row (gtk_list_item_get_item (item));
  GtkWidget *label = gtk_list_item_get_child (item);
  g_autofree char *text = cell_text (row, column);

  gtk_label_set_text (GTK_LABEL (label), text);
  if (column == COLUMN_NAME)
    {
      const char *name = row->a.name ? row->a.name : row->b.name ? row->b.name : row->key;
      g_autofree char *both = row->match == CHRONO_COMPARE_MATCH_OPERATOR && row->b.name != NULL
                              ? g_strdup_printf ("%s\n→ %s", name, row->b.name) : g_strdup (name);
      /* Translators: a kernel's tooltip: its name, then the operator that launched it */
      g_autofree char *tooltip = row->op != NULL ? g_strdup_printf (_("%s\nlaunched by %s"), both, row->op)
                                                 : g_strdup (both);

      gtk_widget_set_tooltip_text (label, tooltip);
    }
  if (column == COLUMN_SIGNIFICANT || column == COLUMN_DELTA || column == COLUMN_DELTA_PERCENT)
    {
      gboolean changed = row->noise == CHRONO_COMPARE_NOISE_BEYOND;

      /* A change beyond the noise reads as slower or faster; the rest stays dim. */
      gtk_widget_remove_css_class (label, "diff-slower");
      gtk_widget_remove_css_class (label, "diff-faster");
      gtk_widget_remove_css_class (label, "dim-label");
      if (changed && row->delta_ns > 0)
        gtk_widget_add_css_class (label, "diff-slower");
      else if (changed && row->delta_ns < 0)
        gtk_widget_add_css_class (label, "diff-faster");
      else
        gtk_widget_add_css_class (label, "dim-label");
    }
}

static void
add_columns (ChronoDiffTable *self)
{
  static const struct {
    const char *title;
    gboolean    expand;
  } columns[N_COLUMNS] = {
    [COLUMN_NAME] = { N_("Name"), TRUE },
    [COLUMN_CALLS_A] = { N_("Calls/Step A"), FALSE },
    [COLUMN_CALLS_B] = { N_("Calls/Step B"), FALSE },
    [COLUMN_TIME_A] = { N_("Time/Step A"), FALSE },
    [COLUMN_TIME_B] = { N_("Time/Step B"), FALSE },
    [COLUMN_DELTA] = { N_("Δ"), FALSE },
    [COLUMN_DELTA_PERCENT] = { N_("Δ %"), FALSE },
    [COLUMN_SIGNIFICANT] = { N_("Significant"), FALSE },
  };

  for (guint c = 0; c < N_COLUMNS; c++)
    {
      GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
      GtkColumnViewColumn *column;
      g_autoptr(GtkSorter) sorter = NULL;

      g_signal_connect (factory, "setup", G_CALLBACK (setup_cell_cb), GINT_TO_POINTER (c));
      g_signal_connect (factory, "bind", G_CALLBACK (bind_cell_cb), GINT_TO_POINTER (c));
      column = gtk_column_view_column_new (_(columns[c].title), factory);
      sorter = GTK_SORTER (gtk_custom_sorter_new (compare_rows_cb, GINT_TO_POINTER (c), NULL));
      gtk_column_view_column_set_sorter (column, sorter);
      gtk_column_view_column_set_expand (column, columns[c].expand);
      gtk_column_view_column_set_resizable (column, TRUE);
      gtk_column_view_append_column (self->column_view, column);
      g_object_unref (column);
    }
}

static void
update_count (ChronoDiffTable *self)
{
  guint shown = g_list_model_get_n_items (G_LIST_MODEL (self->sorted));
  g_autofree char *text = NULL;

  if (self->comparison == NULL)
    {
      gtk_label_set_text (self->count_label, "");
      return;
    }
  text = self->kind == CHRONO_DIFF_OPERATORS
    ? g_strdup_printf (ngettext ("%u operator", "%u operators", shown), shown)
    : g_strdup_printf (ngettext ("%u kernel", "%u kernels", shown), shown);
  gtk_label_set_text (self->count_label, text);
}

static void
update_rows (ChronoDiffTable *self)
{
  g_autoptr(GListModel) rows = NULL;

  if (self->comparison != NULL)
    rows = chrono_diff_row_list_new (self->comparison, self->kind);
  gtk_filter_list_model_set_model (self->filtered, rows);
  update_count (self);
}

static void
kind_toggled_cb (ChronoDiffTable *self)
{
  chrono_diff_table_set_kind (self, gtk_toggle_button_get_active (self->kernels_button) ? CHRONO_DIFF_KERNELS
                                                                                       : CHRONO_DIFF_OPERATORS);
}

static void
search_changed_cb (ChronoDiffTable *self)
{
  chrono_diff_table_set_filter_text (self, gtk_editable_get_text (GTK_EDITABLE (self->search_entry)));
}

static void
activate_cb (ChronoDiffTable *self,
             guint            position)
{
  g_autoptr(ChronoDiffRow) row = g_list_model_get_item (G_LIST_MODEL (self->sorted), position);

  if (row != NULL)
    g_signal_emit (self, signals[ROW_ACTIVATED], 0, row);
}

static void
chrono_diff_table_dispose (GObject *object)
{
  ChronoDiffTable *self = CHRONO_DIFF_TABLE (object);

  /* The rows go first: their changes update labels that go with the template. */
  if (self->sorted != NULL)
    g_signal_handlers_disconnect_by_data (self->sorted, self);
  if (self->column_view != NULL)
    gtk_column_view_set_model (self->column_view, NULL);
  gtk_widget_dispose_template (GTK_WIDGET (self), CHRONO_TYPE_DIFF_TABLE);
  g_clear_object (&self->comparison);
  g_clear_object (&self->sorted);
  g_clear_object (&self->filtered);
  g_clear_object (&self->filter);

  G_OBJECT_CLASS (chrono_diff_table_parent_class)->dispose (object);
}

static void
chrono_diff_table_finalize (GObject *object)
{
  g_free (CHRONO_DIFF_TABLE (object)->filter_text);

  G_OBJECT_CLASS (chrono_diff_table_parent_class)->finalize (object);
}

static void
chrono_diff_table_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  ChronoDiffTable *self = CHRONO_DIFF_TABLE (object);

  switch (prop_id)
    {
    case PROP_COMPARISON:
      g_value_set_object (value, self->comparison);
      break;
    case PROP_KIND:
      g_value_set_int (value, self->kind);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
chrono_diff_table_set_property (GObject      *object,
                                guint         prop_id,
                                const GValue *value,
                                GParamSpec   *pspec)
{
  ChronoDiffTable *self = CHRONO_DIFF_TABLE (object);

  switch (prop_id)
    {
    case PROP_COMPARISON:
      chrono_diff_table_set_comparison (self, g_value_get_object (value));
      break;
    case PROP_KIND:
      chrono_diff_table_set_kind (self, g_value_get_int (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
chrono_diff_table_class_init (ChronoDiffTableClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = chrono_diff_table_dispose;
  object_class->finalize = chrono_diff_table_finalize;
  object_class->get_property = chrono_diff_table_get_property;
  object_class->set_property = chrono_diff_table_set_property;

  properties[PROP_COMPARISON] =
    g_param_spec_object ("comparison", NULL, NULL, CHRONO_TYPE_COMPARISON,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* A ChronoDiffKind. */
  properties[PROP_KIND] =
    g_param_spec_int ("kind", NULL, NULL, CHRONO_DIFF_OPERATORS, CHRONO_DIFF_KERNELS, CHRONO_DIFF_OPERATORS,
                      G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * ChronoDiffTable::row-activated:
   * @row: the #ChronoDiffRow
   *
   * A row was activated: its calls are to be shown.
   */
  signals[ROW_ACTIVATED] =
    g_signal_new ("row-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, CHRONO_TYPE_DIFF_ROW);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "difftable");
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/chronoscope/Chronoscope/chrono-diff-table.ui");
  gtk_widget_class_bind_template_child (widget_class, ChronoDiffTable, box);
  gtk_widget_class_bind_template_child (widget_class, ChronoDiffTable, operators_button);
  gtk_widget_class_bind_template_child (widget_class, ChronoDiffTable, kernels_button);
  gtk_widget_class_bind_template_child (widget_class, ChronoDiffTable, search_entry);
  gtk_widget_class_bind_template_child (widget_class, ChronoDiffTable, count_label);
  gtk_widget_class_bind_template_child (widget_class, ChronoDiffTable, column_view);
  gtk_widget_class_bind_template_callback (widget_class, kind_toggled_cb);
  gtk_widget_class_bind_template_callback (widget_class, search_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, activate_cb);
}

static void
chrono_diff_table_init (ChronoDiffTable *self)
{
  GtkSingleSelection *selection;

  gtk_widget_init_template (GTK_WIDGET (self));

  add_columns (self);
  self->filter = gtk_custom_filter_new (filter_cb, self, NULL);
  self->filtered = gtk_filter_list_model_new (NULL, g_object_ref (GTK_FILTER (self->filter)));
  self->sorted = gtk_sort_list_model_new (g_object_ref (G_LIST_MODEL (self->filtered)),
                                          g_object_ref (gtk_column_view_get_sorter (self->column_view)));
  selection = gtk_single_selection_new (g_object_ref (G_LIST_MODEL (self->sorted)));
  gtk_single_selection_set_autoselect (selection, FALSE);
  gtk_single_selection_set_can_unselect (selection, TRUE);
  gtk_column_view_set_model (self->column_view, GTK_SELECTION_MODEL (selection));
  g_object_unref (selection);
  g_signal_connect_object (self->sorted, "items-changed", G_CALLBACK (update_count), self, G_CONNECT_SWAPPED);
}

GtkWidget *
chrono_diff_table_new (void)
{
  return g_object_new (CHRONO_TYPE_DIFF_TABLE, NULL);
}

/**
 * chrono_diff_table_get_comparison:
 *
 * Returns: (transfer none) (nullable): the comparison shown
 */
ChronoComparison *
chrono_diff_table_get_comparison (ChronoDiffTable *self)
{
  g_return_val_if_fail (CHRONO_IS_DIFF_TABLE (self), NULL);
  return self->comparison;
}

void
chrono_diff_table_set_comparison (ChronoDiffTable  *self,
                                  ChronoComparison *comparison)
{
  g_return_if_fail (CHRONO_IS_DIFF_TABLE (self));
  g_return_if_fail (comparison == NULL || CHRONO_IS_COMPARISON (comparison));

  if (!g_set_object (&self->comparison, comparison))
    return;
  update_rows (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_COMPARISON]);
}

ChronoDiffKind
chrono_diff_table_get_kind (ChronoDiffTable *self)
{
  g_return_val_if_fail (CHRONO_IS_DIFF_TABLE (self), CHRONO_DIFF_OPERATORS);
  return self->kind;
}

void
chrono_diff_table_set_kind (ChronoDiffTable *self,
                            ChronoDiffKind   kind)
{
  g_return_if_fail (CHRONO_IS_DIFF_TABLE (self));
  g_return_if_fail (kind == CHRONO_DIFF_OPERATORS || kind == CHRONO_DIFF_KERNELS);

  gtk_toggle_button_set_active (kind == CHRONO_DIFF_KERNELS ? self->kernels_button : self->operators_button, TRUE);
  if (self->kind == kind)
    return;
  self->kind = kind;
  update_rows (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_KIND]);
}

void
chrono_diff_table_set_filter_text (ChronoDiffTable *self,
                                   const char      *text)
{
  g_autofree char *folded = NULL;

  g_return_if_fail (CHRONO_IS_DIFF_TABLE (self));

  if (text != NULL && *text != '\0')
    folded = g_utf8_casefold (text, -1);
  if (g_strcmp0 (folded, self->filter_text) == 0)
    return;
  g_free (self->filter_text);
  self->filter_text = g_steal_pointer (&folded);
  if (g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (self->search_entry)), text != NULL ? text : "") != 0)
    gtk_editable_set_text (GTK_EDITABLE (self->search_entry), text != NULL ? text : "");
  gtk_filter_changed (GTK_FILTER (self->filter), GTK_FILTER_CHANGE_DIFFERENT);
}

/**
 * chrono_diff_table_get_column_view:
 *
 * Returns: (transfer none): the table's view, to sort it
 */
GtkColumnView *
chrono_diff_table_get_column_view (ChronoDiffTable *self)
{
  g_return_val_if_fail (CHRONO_IS_DIFF_TABLE (self), NULL);
  return self->column_view;
}

/**
 * chrono_diff_table_get_rows:
 *
 * Returns: (transfer none): the rows shown, in their order
 */
GListModel *
chrono_diff_table_get_rows (ChronoDiffTable *self)
{
  g_return_val_if_fail (CHRONO_IS_DIFF_TABLE (self), NULL);
  return G_LIST_MODEL (self->sorted);
}
