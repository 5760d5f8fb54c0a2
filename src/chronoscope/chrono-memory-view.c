/* chrono-memory-view.c: each device's memory peak and what held it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "chrono-format.h"
#include "chrono-memory-view.h"

/* The operators named under a device's heading. */
#define TOP_OPERATORS 5

struct _ChronoMemoryView
{
  GtkWidget       parent_instance;

  ChronoTimeline *timeline;
  ChronoAnalysis *analysis;

  GtkWidget      *content;
  GtkLabel       *notes_label;
  GtkListBox     *list;
};

G_DEFINE_FINAL_TYPE (ChronoMemoryView, chrono_memory_view, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_TIMELINE,
  PROP_ANALYSIS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static GtkWidget *
add_row (ChronoMemoryView *self,
         const char       *text,
         const char       *css_class,
         gboolean          activatable)
{
  GtkWidget *label = gtk_label_new (text);
  GtkWidget *row = gtk_list_box_row_new ();

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  if (css_class != NULL)
    gtk_widget_add_css_class (label, css_class);
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), label);
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), activatable);
  gtk_list_box_row_set_selectable (GTK_LIST_BOX_ROW (row), activatable);
  gtk_list_box_append (self->list, row);
  return row;
}

static const char *
name_or (ChronoTrace *trace,
         guint32      name,
         const char  *none)
{
  return name != CHRONO_NO_STRING ? chrono_trace_get_string (trace, name) : none;
}

static void
add_device (ChronoMemoryView         *self,
            ChronoTrace              *trace,
            const ChronoMemoryDevice *d)
{
  g_autofree char *peak = chrono_format_bytes (d->peak_allocated_bytes);
  g_autofree char *at = chrono_format_duration (d->peak_ns - chrono_trace_get_start_ns (trace));
  g_autofree char *heading = g_strdup_printf (_("%s: peak %s at %s"), d->label, peak, at);

  add_row (self, heading, "heading", FALSE);
  /* A counter with parts (Neuron's HBM by category): each part then. */
  for (guint k = 0; d->parts_at_peak != NULL && k < d->parts_at_peak->len; k++)
    {
      const ChronoMemoryGroup *g = &g_array_index (d->parts_at_peak, ChronoMemoryGroup, k);
      g_autofree char *bytes = chrono_format_bytes (g->bytes);
      /* Translators: a part of a device's memory at its peak: "2.1 GB in weights". */
      g_autofree char *text = g_strdup_printf (_("%s in %s"), bytes,
                                               chrono_memory_part_name (chrono_trace_get_string (trace, g->name)));

      add_row (self, text, "dim-label", FALSE);
    }
  if (!d->has_addresses)
    return;
  for (guint k = 0; k < MIN (d->by_operator->len, TOP_OPERATORS); k++)
    {
      const ChronoMemoryGroup *g = &g_array_index (d->by_operator, ChronoMemoryGroup, k);
      g_autofree char *bytes = chrono_format_bytes (g->bytes);
      g_autofree char *op = chrono_format_short_name (name_or (trace, g->name, _("outside any operator")),
                                                      CHRONO_SHORT_NAME_WIDTH);
      g_autofree char *text = g_strdup_printf (ngettext ("%s held by %s (%u allocation)",
                                                         "%s held by %s (%u allocations)", g->allocations),
                                               bytes, op, g->allocations);

      add_row (self, text, "dim-label", FALSE);
    }
  if (d->largest->len > 0)
    add_row (self, _("Largest alive at the peak"), "caption-heading", FALSE);
  for (guint k = 0; k < d->largest->len; k++)
    {
      const ChronoMemoryAllocation *a = &g_array_index (d->allocations, ChronoMemoryAllocation,
                                                        g_array_index (d->largest, guint, k));
      g_autofree char *bytes = chrono_format_bytes (a->bytes);
      g_autofree char *op = chrono_format_short_name (name_or (trace, a->op_name, _("outside any operator")),
                                                      CHRONO_SHORT_NAME_WIDTH);
      /* Translators: a live allocation: "860.3 MB · aten::bmm · temporary". */
      g_autofree char *text = g_strdup_printf (_("%s · %s · %s"), bytes, op,
                                               chrono_memory_category_to_string (a->category));
      GtkWidget *row = add_row (self, text, "numeric", TRUE);

      g_object_set_data (G_OBJECT (row), "allocation", (gpointer) a);
    }
}

static void
fill (ChronoMemoryView *self)
{
  g_autoptr(GString) notes = g_string_new (NULL);
  ChronoMemory * const *memories = NULL;
  guint n_memories = 0, n_devices = 0;
  GtkWidget *child, *parent;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->list))) != NULL)
    gtk_list_box_remove (self->list, child);
  if (self->analysis != NULL)
    memories = chrono_analysis_get_memories (self->analysis, &n_memories);
  for (guint t = 0; t < n_memories; t++)
    {
      ChronoTrace *trace = chrono_memory_get_trace (memories[t]);

      n_devices += chrono_memory_get_n_devices (memories[t]);
      for (guint i = 0; i < chrono_memory_get_n_devices (memories[t]); i++)
        add_device (self, trace, chrono_memory_get_device (memories[t], i));
      for (guint i = 0; i < chrono_memory_get_n_findings (memories[t]); i++)
        {
          const ChronoMemoryFinding *f = chrono_memory_get_finding (memories[t], i);
          g_autofree char *text = g_strdup_printf ("%s\n%s", f->title, f->recommendation);

          add_row (self, text, NULL, FALSE);
        }
      for (const char * const *n = chrono_memory_get_notes (memories[t]); *n != NULL; n++)
        g_string_append_printf (notes, "%s%s", notes->len > 0 ? "\n" : "", *n);
    }
  if (n_memories > 0 && chrono_memory_get_n_findings (memories[0]) > 0)
    g_string_append_printf (notes, "%s%s", notes->len > 0 ? "\n" : "",
                            _("Memory findings cost no time: they are ranked by the share of the peak they concern."));
  gtk_label_set_text (self->notes_label, notes->str);
  gtk_widget_set_visible (GTK_WIDGET (self->notes_label), notes->len > 0);
  /* A trace without memory events gets no tab: the report's one line
   * says so, and the panel's tabs keep their width. */
  if (GTK_IS_STACK (parent = gtk_widget_get_parent (GTK_WIDGET (self))))
    gtk_stack_page_set_visible (gtk_stack_get_page (GTK_STACK (parent), GTK_WIDGET (self)), n_devices > 0);
}

const ChronoMemoryAllocation *
chrono_memory_view_get_allocation (ChronoMemoryView *self,
                                   guint             position)
{
  GtkListBoxRow *row;

  g_return_val_if_fail (CHRONO_IS_MEMORY_VIEW (self), NULL);
  row = gtk_list_box_get_row_at_index (self->list, (int) position);
  return row != NULL ? g_object_get_data (G_OBJECT (row), "allocation") : NULL;
}

void
chrono_memory_view_activate_row (ChronoMemoryView *self,
                                 guint             position)
{
  const ChronoMemoryAllocation *a = chrono_memory_view_get_allocation (self, position);
  ChronoSpanRef spans[2];
  guint n = 0;
  gint64 start, end;

  if (a == NULL || self->timeline == NULL)
    return;
  gtk_list_box_select_row (self->list, gtk_list_box_get_row_at_index (self->list, (int) position));
  /* Its lifetime, from the allocation to the free (or a little past it). */
  start = a->alloc_ns;
  end = a->free_ns >= 0 ? a->free_ns : start + 1000;
  chrono_viewport_zoom_to_range (chrono_timeline_get_viewport (self->timeline), start - (end - start) / 8 - 1,
                                 end + (end - start) / 8 + 1);
  if (a->op.track == CHRONO_MEMORY_NONE)
    return;
  spans[n++] = a->op;
  if (a->free_op.track != CHRONO_MEMORY_NONE)
    spans[n++] = a->free_op;
  chrono_timeline_set_path (self->timeline, spans, n);
  chrono_timeline_scroll_to_track (self->timeline, a->op.track);
  chrono_timeline_select (self->timeline, &a->op);
  g_signal_emit_by_name (self->timeline, "span-activated", a->op.track, a->op.index);
}

static void
row_activated_cb (GtkListBox       *list,
                  GtkListBoxRow    *row,
                  ChronoMemoryView *self)
{
  chrono_memory_view_activate_row (self, (guint) gtk_list_box_row_get_index (row));
}

static void
chrono_memory_view_dispose (GObject *object)
{
  ChronoMemoryView *self = CHRONO_MEMORY_VIEW (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), CHRONO_TYPE_MEMORY_VIEW);
  g_clear_object (&self->analysis);
  g_clear_object (&self->timeline);

  G_OBJECT_CLASS (chrono_memory_view_parent_class)->dispose (object);
}

static void
chrono_memory_view_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  ChronoMemoryView *self = CHRONO_MEMORY_VIEW (object);

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
chrono_memory_view_set_property (GObject      *object,
                                 guint         prop_id,
                                 const GValue *value,
                                 GParamSpec   *pspec)
{
  ChronoMemoryView *self = CHRONO_MEMORY_VIEW (object);

  switch (prop_id)
    {
    case PROP_TIMELINE:
      chrono_memory_view_set_timeline (self, g_value_get_object (value));
      break;
    case PROP_ANALYSIS:
      chrono_memory_view_set_analysis (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
chrono_memory_view_class_init (ChronoMemoryViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = chrono_memory_view_dispose;
  object_class->get_property = chrono_memory_view_get_property;
  object_class->set_property = chrono_memory_view_set_property;

  properties[PROP_TIMELINE] =
    g_param_spec_object ("timeline", NULL, NULL, CHRONO_TYPE_TIMELINE,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_ANALYSIS] =
    g_param_spec_object ("analysis", NULL, NULL, CHRONO_TYPE_ANALYSIS,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "memoryview");
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/chronoscope/Chronoscope/chrono-memory-view.ui");
  gtk_widget_class_bind_template_child (widget_class, ChronoMemoryView, content);
  gtk_widget_class_bind_template_child (widget_class, ChronoMemoryView, notes_label);
  gtk_widget_class_bind_template_child (widget_class, ChronoMemoryView, list);
}

static void
chrono_memory_view_init (ChronoMemoryView *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  g_signal_connect (self->list, "row-activated", G_CALLBACK (row_activated_cb), self);
}

GtkWidget *
chrono_memory_view_new (void)
{
  return g_object_new (CHRONO_TYPE_MEMORY_VIEW, NULL);
}

void
chrono_memory_view_set_timeline (ChronoMemoryView *self,
                                 ChronoTimeline   *timeline)
{
  g_return_if_fail (CHRONO_IS_MEMORY_VIEW (self));
  g_return_if_fail (timeline == NULL || CHRONO_IS_TIMELINE (timeline));

  if (g_set_object (&self->timeline, timeline))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TIMELINE]);
}

ChronoTimeline *
chrono_memory_view_get_timeline (ChronoMemoryView *self)
{
  g_return_val_if_fail (CHRONO_IS_MEMORY_VIEW (self), NULL);
  return self->timeline;
}

void
chrono_memory_view_set_analysis (ChronoMemoryView *self,
                                 ChronoAnalysis   *analysis)
{
  g_return_if_fail (CHRONO_IS_MEMORY_VIEW (self));
  g_return_if_fail (analysis == NULL || CHRONO_IS_ANALYSIS (analysis));

  if (!g_set_object (&self->analysis, analysis))
    return;
  fill (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ANALYSIS]);
}

ChronoAnalysis *
chrono_memory_view_get_analysis (ChronoMemoryView *self)
{
  g_return_val_if_fail (CHRONO_IS_MEMORY_VIEW (self), NULL);
  return self->analysis;
}
