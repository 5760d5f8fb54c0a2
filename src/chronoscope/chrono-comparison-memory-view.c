/* chrono-comparison-memory-view.c: memory peaks of both runs, side by side
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "chrono-comparison-memory.h"
#include "chrono-comparison-memory-view.h"
#include "chrono-format.h"

struct _ChronoComparisonMemoryView
{
  GtkWidget         parent_instance;
  GtkStack         *stack;
  GtkBox           *content;
  ChronoComparison *comparison;
  GPtrArray        *rows;      /* ChronoCompareMemory */
  GPtrArray        *grids;     /* GtkGrid, one per row */
};

G_DEFINE_FINAL_TYPE (ChronoComparisonMemoryView, chrono_comparison_memory_view, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_COMPARISON,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static GtkWidget *
cell (GtkGrid    *grid,
      const char *text,
      int         column,
      int         row,
      gboolean    numeric)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), numeric ? 1.0f : 0.0f);
  gtk_label_set_ellipsize (GTK_LABEL (label), numeric ? PANGO_ELLIPSIZE_NONE : PANGO_ELLIPSIZE_MIDDLE);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  if (numeric)
    gtk_widget_add_css_class (label, "numeric");
  gtk_grid_attach (grid, label, column, row, 1, 1);
  return label;
}

static char *
peak_text (const ChronoMemoryDevice *d)
{
  return d != NULL ? chrono_format_bytes (d->peak_allocated_bytes) : g_strdup (_("none"));
}

/* "+1.5 GB", "−200 MB", or empty when either run lacks the device. */
static char *
change_text (const ChronoCompareMemory *row)
{
  gint64 delta;
  g_autofree char *bytes = NULL;

  if (row->a == NULL || row->b == NULL)
    return g_strdup ("");
  delta = row->b->peak_allocated_bytes - row->a->peak_allocated_bytes;
  bytes = chrono_format_bytes ((guint64) ABS (delta));
  if (delta == 0)
    return g_strdup (_("no change"));
  return g_strdup_printf ("%s%s", delta > 0 ? "+" : "−", bytes);
}

/* "aten::linear · 1.2 GB" for the K-th operator of D's peak, or NULL. */
static char *
op_text (ChronoComparison         *comparison,
         ChronoCompareSideId       side,
         const ChronoMemoryDevice *d,
         guint                     k)
{
  const ChronoMemoryGroup *g;
  ChronoMemory * const *memories;
  g_autofree char *bytes = NULL;
  const char *name;
  guint n;

  if (d == NULL || k >= d->by_operator->len)
    return NULL;
  g = &g_array_index (d->by_operator, ChronoMemoryGroup, k);
  memories = chrono_analysis_get_memories (chrono_comparison_get_analysis (comparison, side), &n);
  name = g->name != CHRONO_NO_STRING && n > 0
         ? chrono_trace_get_string (chrono_memory_get_trace (memories[0]), g->name)
         : _("outside any operator");
  bytes = chrono_format_bytes (g->bytes);
  /* Translators: an operator and the bytes it held at the peak */
  return g_strdup_printf (_("%s · %s"), name, bytes);
}

static GtkGrid *
device_grid (ChronoComparisonMemoryView *self,
             const ChronoCompareMemory  *row)
{
  GtkGrid *grid = GTK_GRID (gtk_grid_new ());
  g_autofree char *a = peak_text (row->a);
  g_autofree char *b = peak_text (row->b);
  g_autofree char *change = change_text (row);
  guint n_ops = 0;
  gboolean counted = (row->a != NULL && row->a->counter_name != CHRONO_NO_STRING) ||
                     (row->b != NULL && row->b->counter_name != CHRONO_NO_STRING);

  gtk_grid_set_column_spacing (grid, 18);
  gtk_grid_set_row_spacing (grid, 4);
  gtk_widget_add_css_class (cell (grid, row->device, 0, 0, FALSE), "heading");
  gtk_widget_add_css_class (cell (grid, _("A"), 1, 0, TRUE), "heading");
  gtk_widget_add_css_class (cell (grid, _("B"), 2, 0, TRUE), "heading");
  gtk_widget_add_css_class (cell (grid, _("Change"), 3, 0, TRUE), "heading");
  cell (grid, _("Peak allocated"), 0, 1, FALSE);
  cell (grid, a, 1, 1, TRUE);
  cell (grid, b, 2, 1, TRUE);
  cell (grid, change, 3, 1, TRUE);
  if (row->a != NULL)
    n_ops = MAX (n_ops, MIN (row->a->by_operator->len, CHRONO_COMPARISON_MEMORY_TOP_OPS));
  if (row->b != NULL)
    n_ops = MAX (n_ops, MIN (row->b->by_operator->len, CHRONO_COMPARISON_MEMORY_TOP_OPS));
  for (guint k = 0; k < n_ops; k++)
    {
      g_autofree char *op_a = op_text (self->comparison, CHRONO_COMPARE_SIDE_A, row->a, k);
      g_autofree char *op_b = op_text (self->comparison, CHRONO_COMPARE_SIDE_B, row->b, k);

      if (k == 0)
        cell (grid, _("Alive at the peak, by operator"), 0, 2, FALSE);
      cell (grid, op_a != NULL ? op_a : "", 1, 2 + (int) k, TRUE);
      cell (grid, op_b != NULL ? op_b : "", 2, 2 + (int) k, TRUE);
    }
  if (n_ops == 0)
    cell (grid, counted ? _("Read from a counter: what held the memory is not in the trace")
                        : _("The events carry no addresses: what was alive at the peak is not known"),
          0, 2, FALSE);
  return grid;
}

static void
rebuild (ChronoComparisonMemoryView *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->content))) != NULL)
    gtk_box_remove (self->content, child);
  g_clear_pointer (&self->rows, g_ptr_array_unref);
  g_ptr_array_set_size (self->grids, 0);
  if (self->comparison != NULL)
    self->rows = chrono_comparison_get_memory_rows (self->comparison);
  for (guint i = 0; self->rows != NULL && i < self->rows->len; i++)
    {
      GtkGrid *grid = device_grid (self, self->rows->pdata[i]);

      gtk_box_append (self->content, GTK_WIDGET (grid));
      g_ptr_array_add (self->grids, grid);
    }
  gtk_stack_set_visible_child_name (self->stack, self->grids->len > 0 ? "memory" : "empty");
}

static void
chrono_comparison_memory_view_dispose (GObject *object)
{
  ChronoComparisonMemoryView *self = CHRONO_COMPARISON_MEMORY_VIEW (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), CHRONO_TYPE_COMPARISON_MEMORY_VIEW);
  g_clear_object (&self->comparison);
  g_clear_pointer (&self->rows, g_ptr_array_unref);
  g_clear_pointer (&self->grids, g_ptr_array_unref);
  G_OBJECT_CLASS (chrono_comparison_memory_view_parent_class)->dispose (object);
}

static void
chrono_comparison_memory_view_get_property (GObject    *object,
                                            guint       prop_id,
                                            GValue     *value,
                                            GParamSpec *pspec)
{
  ChronoComparisonMemoryView *self = CHRONO_COMPARISON_MEMORY_VIEW (object);

  switch (prop_id)
    {
    case PROP_COMPARISON:
      g_value_set_object (value, self->comparison);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
chrono_comparison_memory_view_set_property (GObject      *object,
                                            guint         prop_id,
                                            const GValue *value,
                                            GParamSpec   *pspec)
{
  ChronoComparisonMemoryView *self = CHRONO_COMPARISON_MEMORY_VIEW (object);

  switch (prop_id)
    {
    case PROP_COMPARISON:
      chrono_comparison_memory_view_set_comparison (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
chrono_comparison_memory_view_class_init (ChronoComparisonMemoryViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = chrono_comparison_memory_view_dispose;
  object_class->get_property = chrono_comparison_memory_view_get_property;
  object_class->set_property = chrono_comparison_memory_view_set_property;

  properties[PROP_COMPARISON] =
    g_param_spec_object ("comparison", NULL, NULL, CHRONO_TYPE_COMPARISON,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/chronoscope/Chronoscope/chrono-comparison-memory-view.ui");
  gtk_widget_class_bind_template_child (widget_class, ChronoComparisonMemoryView, stack);
  gtk_widget_class_bind_template_child (widget_class, ChronoComparisonMemoryView, content);
}

static void
chrono_comparison_memory_view_init (ChronoComparisonMemoryView *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->grids = g_ptr_array_new ();
}

GtkWidget *
chrono_comparison_memory_view_new (void)
{
  return g_object_new (CHRONO_TYPE_COMPARISON_MEMORY_VIEW, NULL);
}

void
chrono_comparison_memory_view_set_comparison (ChronoComparisonMemoryView *self,
                                              ChronoComparison           *comparison)
{
  g_return_if_fail (CHRONO_IS_COMPARISON_MEMORY_VIEW (self));
  g_return_if_fail (comparison == NULL || CHRONO_IS_COMPARISON (comparison));

  if (!g_set_object (&self->comparison, comparison))
    return;
  rebuild (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_COMPARISON]);
}

ChronoComparison *
chrono_comparison_memory_view_get_comparison (ChronoComparisonMemoryView *self)
{
  g_return_val_if_fail (CHRONO_IS_COMPARISON_MEMORY_VIEW (self), NULL);
  return self->comparison;
}

GPtrArray *
chrono_comparison_memory_view_get_rows (ChronoComparisonMemoryView *self)
{
  g_return_val_if_fail (CHRONO_IS_COMPARISON_MEMORY_VIEW (self), NULL);
  return self->rows;
}

GtkGrid *
chrono_comparison_memory_view_get_grid (ChronoComparisonMemoryView *self,
                                        guint                       index)
{
  g_return_val_if_fail (CHRONO_IS_COMPARISON_MEMORY_VIEW (self), NULL);
  g_return_val_if_fail (index < self->grids->len, NULL);
  return self->grids->pdata[index];
}
