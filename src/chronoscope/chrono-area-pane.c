/* chrono-area-pane.c: the table of what an area of the timeline holds
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "chrono-area-item.h"
#include "chrono-area-pane.h"
#include "chrono-format.h"
#include "chrono-sortable-column.h"

typedef enum {
  COLUMN_LABEL,
  COLUMN_TRACK,
  COLUMN_COUNT,
  COLUMN_WALL,
  COLUMN_SELF,
  COLUMN_MEAN,
  COLUMN_MIN,
  COLUMN_MAX,
  COLUMN_P50,
  COLUMN_P95,
  COLUMN_SHARE,
  N_SPAN_COLUMNS,
  /* The counters' table. */
  COLUMN_COUNTER = N_SPAN_COLUMNS,
  COLUMN_SAMPLES,
  COLUMN_VALUE_MIN,
  COLUMN_VALUE_MAX,
  COLUMN_VALUE_MEAN,
  COLUMN_WEIGHTED_MEAN,
  N_COLUMNS
} Column;

static const char *const column_titles[N_COLUMNS] = {
  N_("Name"), N_("Track"), N_("Count"), N_("Wall Time"), N_("Self Time"), N_("Mean"), N_("Min"), N_("Max"),
  N_("P50"), N_("P95"), N_("Share"),
  N_("Counter"), N_("Samples"), N_("Min"), N_("Max"), N_("Mean"), N_("Time-Weighted Mean"),
};

static const char *const grouping_titles[] = { N_("Name"), N_("Category"), N_("Kind") };

struct _ChronoAreaPane
{
  GtkWidget            parent_instance;

  ChronoTimeline      *timeline;
  GCancellable        *cancellable;
  ChronoAreaStats     *stats;
  gint64               start_ns;
  gint64               end_ns;
  GArray              *tracks;      /* guint */
  GListStore          *spans;       /* ChronoAreaItem */
  GListStore          *counters;    /* ChronoAreaItem */
  GtkCustomFilter     *filter;
  GtkFilterListModel  *filtered;
  GtkSortListModel    *sorted;
  GArray              *marked;      /* ChronoSpanRef of the row chosen, by start */
  guint                current;
  GtkColumnViewColumn *columns[N_COLUMNS];

  GtkLabel            *title_label;
  GtkDropDown         *grouping_dropdown;
  GtkToggleButton     *per_track_button;
  GtkSearchEntry      *filter_entry;
  GtkLabel            *count_label;
  GtkStack            *stack;
  GtkSpinner          *spinner;
  GtkColumnView       *span_view;
  GtkColumnView       *counter_view;
  GtkWidget           *counter_window;
};

G_DEFINE_FINAL_TYPE (ChronoAreaPane, chrono_area_pane, GTK_TYPE_WIDGET)

/* -------------------------------------------------------------------- */
/* Cells                                                                */

static char *
track_label (ChronoTrace *trace,
             guint        t)
{
  const ChronoTrack *track = chrono_trace_get_track (trace, t);
  const ChronoProcess *process = chrono_trace_get_process (trace, track->process);

  return g_strdup_printf ("%s · %s", chrono_trace_get_string (trace, process->display_name),
                          chrono_trace_get_string (trace, track->display_name));
}

static char *
duration_text (gint64   ns,
               gboolean raw)
{
  return raw ? g_strdup_printf ("%" G_GINT64_FORMAT, ns) : chrono_format_duration (ns);
}

static char *
value_text (gdouble value)
{
  return g_strdup_printf ("%.6g", value);
}

/* RAW: whole nanoseconds and plain numbers, for spreadsheets. */
static char *
cell_text (ChronoAreaItem *item,
           Column          column,
           gboolean        raw)
{
  const ChronoAreaRow *row = chrono_area_item_get_row (item);
  const ChronoAreaCounter *counter = chrono_area_item_get_counter (item);
  ChronoTrace *trace = chrono_area_stats_get_trace (chrono_area_item_get_stats (item));

  switch (column)
    {
    case COLUMN_LABEL:
      return g_strdup (row->label[0] != '\0' ? row->label : "—");
    case COLUMN_TRACK:
      return row->track >= 0 ? track_label (trace, (guint) row->track) : g_strdup ("");
    case COLUMN_COUNT:
      return raw ? g_strdup_printf ("%" G_GUINT64_FORMAT, row->count) : chrono_format_count (row->count);
    case COLUMN_WALL:
      return duration_text (row->wall_ns, raw);
    case COLUMN_SELF:
      return duration_text (row->self_ns, raw);
    case COLUMN_MEAN:
      return raw ? g_strdup_printf ("%.1f", row->mean_ns) : chrono_format_duration ((gint64) (row->mean_ns + 0.5));
    case COLUMN_MIN:
      return duration_text (row->min_ns, raw);
    case COLUMN_MAX:
      return duration_text (row->max_ns, raw);
    case COLUMN_P50:
      return duration_text (row->p50_ns, raw);
    case COLUMN_P95:
      return duration_text (row->p95_ns, raw);
    case COLUMN_SHARE:
      return raw ? g_strdup_printf ("%.6f", row->share) : g_strdup_printf (_("%.1f %%"), row->share * 100);
    case COLUMN_COUNTER:
      return track_label (trace, counter->track);
    case COLUMN_SAMPLES:
      return raw ? g_strdup_printf ("%" G_GUINT64_FORMAT, counter->count) : chrono_format_count (counter->count);
    case COLUMN_VALUE_MIN:
      return value_text (counter->min);
    case COLUMN_VALUE_MAX:
      return value_text (counter->max);
    case COLUMN_VALUE_MEAN:
      return value_text (counter->mean);
    case COLUMN_WEIGHTED_MEAN:
    default:
      return value_text (counter->weighted_mean);
    }
}

static gdouble
cell_number (ChronoAreaItem *item,
             Column          column)
{
  const ChronoAreaRow *row = chrono_area_item_get_row (item);
  const ChronoAreaCounter *counter = chrono_area_item_get_counter (item);

  switch (column)
    {
    case COLUMN_TRACK:
      return row->track;
    case COLUMN_COUNT:
      return (gdouble) row->count;
    case COLUMN_WALL:
      return (gdouble) row->wall_ns;
    case COLUMN_SELF:
      return (gdouble) row->self_ns;
    case COLUMN_MEAN:
      return row->mean_ns;
    case COLUMN_MIN:
      return (gdouble) row->min_ns;
    case COLUMN_MAX:
      return (gdouble) row->max_ns;
    case COLUMN_P50:
      return (gdouble) row->p50_ns;
    case COLUMN_P95:
      return (gdouble) row->p95_ns;
    case COLUMN_SHARE:
      return row->share;
    case COLUMN_SAMPLES:
      return (gdouble) counter->count;
    case COLUMN_VALUE_MIN:
      return counter->min;
    case COLUMN_VALUE_MAX:
      return counter->max;
    case COLUMN_VALUE_MEAN:
      return counter->mean;
    case COLUMN_WEIGHTED_MEAN:
    default:
      return counter->weighted_mean;
    }
}

static gboolean
is_text_column (Column column)
{
  return column == COLUMN_LABEL || column == COLUMN_TRACK || column == COLUMN_COUNTER;
}

static int
compare_cells (gconstpointer a,
               gconstpointer b,
               gpointer      data)
{
  Column column = GPOINTER_TO_UINT (data);
  ChronoAreaItem *x = CHRONO_AREA_ITEM ((gpointer) a), *y = CHRONO_AREA_ITEM ((gpointer) b);
  gdouble u, v;

  if (column == COLUMN_LABEL)
    return g_utf8_collate (chrono_area_item_get_row (x)->label, chrono_area_item_get_row (y)->label);
  if (column == COLUMN_COUNTER)
    return (int) chrono_area_item_get_counter (x)->track - (int) chrono_area_item_get_counter (y)->track;
  u = cell_number (x, column);
  v = cell_number (y, column);
  return (u > v) - (u < v);
}

static void
setup_cell (GtkSignalListItemFactory *factory,
            GtkListItem              *item,
            gpointer                  data)
{
  GtkWidget *label = gtk_label_new (NULL);
  gboolean text = is_text_column (GPOINTER_TO_UINT (data));

  gtk_label_set_xalign (GTK_LABEL (label), text ? 0 : 1);
  /* Numbers are never cut; names are, in the middle. */
  if (text)
    gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_MIDDLE);
  else
    gtk_widget_add_css_class (label, "numeric");
  gtk_list_item_set_child (item, label);
}

static void
bind_cell (GtkSignalListItemFactory *factory,
           GtkListItem              *item,
           gpointer                  data)
{
  g_autofree char *text = cell_text (gtk_list_item_get_item (item), GPOINTER_TO_UINT (data), FALSE);

  gtk_label_set_text (GTK_LABEL (gtk_list_item_get_child (item)), text);
  if (is_text_column (GPOINTER_TO_UINT (data)))
    gtk_widget_set_tooltip_text (gtk_list_item_get_child (item), text);
}

static gboolean
filter_row (gpointer item,
            gpointer data)
{
  ChronoAreaPane *self = data;
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->filter_entry));
  const ChronoAreaRow *row = chrono_area_item_get_row (item);
  g_autofree char *needle = NULL, *label = NULL, *track = NULL, *track_folded = NULL;

  if (text[0] == '\0')
    return TRUE;
  needle = g_utf8_casefold (text, -1);
  label = g_utf8_casefold (row->label, -1);
  if (strstr (label, needle) != NULL)
    return TRUE;
  if (row->track < 0)
    return FALSE;
  track = track_label (chrono_area_stats_get_trace (chrono_area_item_get_stats (item)), (guint) row->track);
  track_folded = g_utf8_casefold (track, -1);
  return strstr (track_folded, needle) != NULL;
}

/* -------------------------------------------------------------------- */
/* Filling                                                              */

static void
update_count (ChronoAreaPane *self)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->filtered));
  g_autofree char *spans = chrono_format_count (self->stats != NULL ? chrono_area_stats_get_n_spans (self->stats) : 0);
  /* Translators: how many rows the area's table shows, then how many spans the area holds */
  g_autofree char *text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u row · %s spans", "%u rows · %s spans", n),
                                           n, spans);

  gtk_label_set_text (self->count_label, self->stats != NULL ? text : "");
}

static void
update_title (ChronoAreaPane *self)
{
  g_autofree char *length = chrono_format_duration (self->end_ns - self->start_ns);
  guint n = self->tracks->len;
  /* Translators: the area: its length and how many tracks */
  g_autofree char *text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s on %u track", "%s on %u tracks", n),
                                           length, n);

  gtk_label_set_text (self->title_label, text);
}

static void
clear_marks (ChronoAreaPane *self)
{
  g_array_set_size (self->marked, 0);
  self->current = 0;
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "area.previous-span", FALSE);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "area.next-span", FALSE);
  if (self->timeline != NULL)
    chrono_timeline_set_path (self->timeline, NULL, 0);
}

static void
show_stats (ChronoAreaPane  *self,
            ChronoAreaStats *stats)
{
  ChronoAreaGrouping grouping;

  g_set_object (&self->stats, stats);
  g_list_store_remove_all (self->spans);
  g_list_store_remove_all (self->counters);
  clear_marks (self);
  for (guint i = 0; stats != NULL && i < chrono_area_stats_get_n_rows (stats); i++)
    {
      g_autoptr(ChronoAreaItem) item = chrono_area_item_new (stats, i, FALSE);

      g_list_store_append (self->spans, item);
    }
  for (guint i = 0; stats != NULL && i < chrono_area_stats_get_n_counters (stats); i++)
    {
      g_autoptr(ChronoAreaItem) item = chrono_area_item_new (stats, i, TRUE);

      g_list_store_append (self->counters, item);
    }
  if (stats != NULL)
    {
      grouping = chrono_area_stats_get_grouping (stats);
      gtk_column_view_column_set_title (self->columns[COLUMN_LABEL], _(grouping_titles[grouping]));
    }
  gtk_column_view_column_set_visible (self->columns[COLUMN_TRACK],
                                      gtk_toggle_button_get_active (self->per_track_button));
  gtk_widget_set_visible (self->counter_window, stats != NULL && chrono_area_stats_get_n_counters (stats) > 0);
  gtk_spinner_set_spinning (self->spinner, stats == NULL);
  gtk_stack_set_visible_child_name (self->stack, stats != NULL ? "table" : "busy");
  update_title (self);
  update_count (self);
}

static void
stats_ready_cb (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(ChronoAreaPane) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(ChronoAreaStats) stats = chrono_area_stats_new_finish (result, &error);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  g_clear_object (&self->cancellable);
  show_stats (self, stats);
}

static void
compute (ChronoAreaPane *self)
{
  if (self->timeline == NULL || self->tracks->len == 0)
    return;
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  show_stats (self, NULL);
  chrono_area_stats_new_async (chrono_timeline_get_trace (self->timeline), (const guint *) self->tracks->data,
                               self->tracks->len, self->start_ns, self->end_ns,
                               gtk_drop_down_get_selected (self->grouping_dropdown),
                               gtk_toggle_button_get_active (self->per_track_button), self->cancellable,
                               stats_ready_cb, g_object_ref (self));
}

void
chrono_area_pane_summarize (ChronoAreaPane *self,
                            gint64          start_ns,
                            gint64          end_ns,
                            const guint    *tracks,
                            guint           n_tracks)
{
  g_return_if_fail (CHRONO_IS_AREA_PANE (self));

  self->start_ns = start_ns;
  self->end_ns = end_ns;
  g_array_set_size (self->tracks, 0);
  g_array_append_vals (self->tracks, tracks, n_tracks);
  gtk_widget_set_visible (GTK_WIDGET (self), TRUE);
  compute (self);
}

/* -------------------------------------------------------------------- */
/* On the timeline                                                      */

static void
show_current (ChronoAreaPane *self)
{
  const ChronoSpanRef *span;

  if (self->current >= self->marked->len)
    return;
  span = &g_array_index (self->marked, ChronoSpanRef, self->current);
  chrono_timeline_select (self->timeline, span);
  chrono_timeline_reveal_span (self->timeline, *span);
}

static int
compare_starts (gconstpointer a,
                gconstpointer b,
                gpointer      data)
{
  ChronoTrace *trace = data;
  const ChronoSpanRef *x = a, *y = b;
  gint64 s = chrono_trace_get_track (trace, x->track)->start[x->index];
  gint64 t = chrono_trace_get_track (trace, y->track)->start[y->index];

  if (s != t)
    return s < t ? -1 : 1;
  return x->track != y->track ? (x->track < y->track ? -1 : 1) : (x->index > y->index) - (x->index < y->index);
}

/* Marks the spans of the row at POSITION on the timeline. */
static void
mark_row (ChronoAreaPane *self,
          guint           position)
{
  g_autoptr(ChronoAreaItem) item = g_list_model_get_item (G_LIST_MODEL (self->sorted), position);
  const ChronoSpanRef *spans;
  guint n = 0;

  clear_marks (self);
  if (item == NULL)
    return;
  spans = chrono_area_stats_get_row_spans (self->stats, chrono_area_item_get_index (item), &n);
  g_array_append_vals (self->marked, spans, n);
  g_array_sort_with_data (self->marked, compare_starts, chrono_area_stats_get_trace (self->stats));
  chrono_timeline_set_path (self->timeline, (const ChronoSpanRef *) self->marked->data, self->marked->len);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "area.previous-span", n > 0);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "area.next-span", n > 0);
}

static void
selection_changed_cb (ChronoAreaPane *self)
{
  GtkSingleSelection *selection = GTK_SINGLE_SELECTION (gtk_column_view_get_model (self->span_view));

  mark_row (self, gtk_single_selection_get_selected (selection));
}

static void
row_activated_cb (ChronoAreaPane *self,
                  guint           position)
{
  mark_row (self, position);
  show_current (self);
}

static void
step_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  ChronoAreaPane *self = CHRONO_AREA_PANE (widget);

  if (self->marked->len == 0)
    return;
  if (g_str_equal (action_name, "area.next-span"))
    self->current = MIN (self->current + 1, self->marked->len - 1);
  else
    self->current = self->current > 0 ? self->current - 1 : 0;
  show_current (self);
}

const ChronoSpanRef *
chrono_area_pane_get_marked (ChronoAreaPane *self,
                             guint          *n_spans,
                             guint          *current)
{
  g_return_val_if_fail (CHRONO_IS_AREA_PANE (self), NULL);
  *n_spans = self->marked->len;
  if (current != NULL)
    *current = self->current;
  return (const ChronoSpanRef *) self->marked->data;
}

/* -------------------------------------------------------------------- */
/* Copying                                                              */

static void
append_table (ChronoAreaPane *self,
              GString    *s,
              GListModel *rows,
              Column      first,
              Column      last,
              gboolean    skip_track,
              gboolean    markdown)
{
  for (guint r = 0; r <= g_list_model_get_n_items (rows); r++)
    {
      g_autoptr(ChronoAreaItem) item = r > 0 ? g_list_model_get_item (rows, r - 1) : NULL;
      gboolean first_cell = TRUE;

      if (markdown)
        g_string_append_c (s, '|');
      for (Column c = first; c < last; c++)
        {
          g_autofree char *text = NULL;

          if (c == COLUMN_TRACK && skip_track)
            continue;
          text = item != NULL ? cell_text (item, c, !markdown)
                              : g_strdup (gtk_column_view_column_get_title (self->columns[c]));
          if (markdown)
            chrono_format_markdown_cell (s, text);
          else
            g_string_append_printf (s, "%s%s", first_cell ? "" : "\t", text);
          first_cell = FALSE;
        }
      g_string_append_c (s, '\n');
      if (markdown && r == 0)
        {
          g_string_append_c (s, '|');
          for (Column c = first; c < last; c++)
            if (!(c == COLUMN_TRACK && skip_track))
              g_string_append (s, is_text_column (c) ? " --- |" : " ---: |");
          g_string_append_c (s, '\n');
        }
    }
}

char *
chrono_area_pane_dup_text (ChronoAreaPane *self,
                           gboolean        markdown)
{
  GString *s = g_string_new (NULL);
  gboolean skip_track;

  g_return_val_if_fail (CHRONO_IS_AREA_PANE (self), NULL);
  skip_track = !gtk_column_view_column_get_visible (self->columns[COLUMN_TRACK]);
  append_table (self, s, G_LIST_MODEL (self->sorted), COLUMN_LABEL, N_SPAN_COLUMNS, skip_track, markdown);
  if (g_list_model_get_n_items (G_LIST_MODEL (self->counters)) > 0)
    {
      g_string_append_c (s, '\n');
      append_table (self, s, G_LIST_MODEL (self->counters), COLUMN_COUNTER, N_COLUMNS, FALSE, markdown);
    }
  return g_string_free (s, FALSE);
}

static void
copy_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  ChronoAreaPane *self = CHRONO_AREA_PANE (widget);
  g_autofree char *text = chrono_area_pane_dup_text (self, g_str_equal (g_variant_get_string (parameter, NULL),
                                                                       "markdown"));

  gdk_clipboard_set_text (gtk_widget_get_clipboard (widget), text);
}

static void
close_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  ChronoAreaPane *self = CHRONO_AREA_PANE (widget);

  g_cancellable_cancel (self->cancellable);
  clear_marks (self);
  gtk_widget_set_visible (widget, FALSE);
  if (self->timeline != NULL)
    gtk_widget_grab_focus (GTK_WIDGET (self->timeline));
}

/* -------------------------------------------------------------------- */
/* GObject                                                              */

void
chrono_area_pane_set_timeline (ChronoAreaPane *self,
                               ChronoTimeline *timeline)
{
  g_return_if_fail (CHRONO_IS_AREA_PANE (self));
  g_set_object (&self->timeline, timeline);
}

ChronoAreaStats *
chrono_area_pane_get_stats (ChronoAreaPane *self)
{
  g_return_val_if_fail (CHRONO_IS_AREA_PANE (self), NULL);
  return self->stats;
}

GListModel *
chrono_area_pane_get_rows (ChronoAreaPane *self)
{
  g_return_val_if_fail (CHRONO_IS_AREA_PANE (self), NULL);
  return G_LIST_MODEL (self->sorted);
}

static void
filter_changed_cb (ChronoAreaPane *self)
{
  gtk_filter_changed (GTK_FILTER (self->filter), GTK_FILTER_CHANGE_DIFFERENT);
  update_count (self);
}

static void
add_columns (ChronoAreaPane *self,
             GtkColumnView  *view,
             Column          first,
             Column          last,
             Column          sorted_by)
{
  for (Column c = first; c < last; c++)
    {
      GtkColumnViewColumn *column = chrono_sortable_column_append (view, _(column_titles[c]), G_CALLBACK (setup_cell),
                                                                   G_CALLBACK (bind_cell), compare_cells,
                                                                   GUINT_TO_POINTER (c));

      gtk_column_view_column_set_expand (column, is_text_column (c));
      if (c == sorted_by)
        gtk_column_view_sort_by_column (view, column, GTK_SORT_DESCENDING);
      self->columns[c] = column;
    }
}

static void
chrono_area_pane_dispose (GObject *object)
{
  ChronoAreaPane *self = CHRONO_AREA_PANE (object);
  GtkWidget *child;

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  gtk_widget_dispose_template (GTK_WIDGET (self), CHRONO_TYPE_AREA_PANE);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  g_clear_object (&self->timeline);
  g_clear_object (&self->stats);
  g_clear_object (&self->sorted);
  g_clear_object (&self->spans);
  g_clear_object (&self->counters);
  G_OBJECT_CLASS (chrono_area_pane_parent_class)->dispose (object);
}

static void
chrono_area_pane_finalize (GObject *object)
{
  ChronoAreaPane *self = CHRONO_AREA_PANE (object);

  g_array_unref (self->tracks);
  g_array_unref (self->marked);
  G_OBJECT_CLASS (chrono_area_pane_parent_class)->finalize (object);
}

static void
chrono_area_pane_class_init (ChronoAreaPaneClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = chrono_area_pane_dispose;
  object_class->finalize = chrono_area_pane_finalize;

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/chronoscope/Chronoscope/chrono-area-pane.ui");
  gtk_widget_class_bind_template_child (widget_class, ChronoAreaPane, title_label);
  gtk_widget_class_bind_template_child (widget_class, ChronoAreaPane, grouping_dropdown);
  gtk_widget_class_bind_template_child (widget_class, ChronoAreaPane, per_track_button);
  gtk_widget_class_bind_template_child (widget_class, ChronoAreaPane, filter_entry);
  gtk_widget_class_bind_template_child (widget_class, ChronoAreaPane, count_label);
  gtk_widget_class_bind_template_child (widget_class, ChronoAreaPane, stack);
  gtk_widget_class_bind_template_child (widget_class, ChronoAreaPane, spinner);
  gtk_widget_class_bind_template_child (widget_class, ChronoAreaPane, span_view);
  gtk_widget_class_bind_template_child (widget_class, ChronoAreaPane, counter_view);
  gtk_widget_class_bind_template_child (widget_class, ChronoAreaPane, counter_window);
  gtk_widget_class_bind_template_callback (widget_class, row_activated_cb);
  gtk_widget_class_install_action (widget_class, "area.previous-span", NULL, step_action);
  gtk_widget_class_install_action (widget_class, "area.next-span", NULL, step_action);
  gtk_widget_class_install_action (widget_class, "area.copy", "s", copy_action);
  gtk_widget_class_install_action (widget_class, "area.close", NULL, close_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Up, GDK_ALT_MASK, "area.previous-span", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Down, GDK_ALT_MASK, "area.next-span", NULL);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "areapane");
}

static void
chrono_area_pane_init (ChronoAreaPane *self)
{
  GtkSortListModel *counters;
  GtkSingleSelection *selection;

  gtk_widget_init_template (GTK_WIDGET (self));
  self->tracks = g_array_new (FALSE, FALSE, sizeof (guint));
  self->marked = g_array_new (FALSE, FALSE, sizeof (ChronoSpanRef));
  self->spans = g_list_store_new (CHRONO_TYPE_AREA_ITEM);
  self->counters = g_list_store_new (CHRONO_TYPE_AREA_ITEM);
  self->filter = gtk_custom_filter_new (filter_row, self, NULL);
  self->filtered = gtk_filter_list_model_new (G_LIST_MODEL (g_object_ref (self->spans)), GTK_FILTER (self->filter));
  add_columns (self, self->span_view, COLUMN_LABEL, N_SPAN_COLUMNS, COLUMN_WALL);
  add_columns (self, self->counter_view, COLUMN_COUNTER, N_COLUMNS, N_COLUMNS);
  self->sorted = gtk_sort_list_model_new (G_LIST_MODEL (self->filtered),
                                          g_object_ref (gtk_column_view_get_sorter (self->span_view)));
  selection = gtk_single_selection_new (G_LIST_MODEL (g_object_ref (self->sorted)));
  /* Marking spans waits for a row chosen. */
  gtk_single_selection_set_autoselect (selection, FALSE);
  gtk_single_selection_set_can_unselect (selection, TRUE);
  gtk_column_view_set_model (self->span_view, GTK_SELECTION_MODEL (selection));
  counters = gtk_sort_list_model_new (G_LIST_MODEL (g_object_ref (self->counters)),
                                      g_object_ref (gtk_column_view_get_sorter (self->counter_view)));
  gtk_column_view_set_model (self->counter_view, GTK_SELECTION_MODEL (gtk_no_selection_new (G_LIST_MODEL (counters))));
  g_signal_connect_swapped (gtk_column_view_get_model (self->span_view), "notify::selected",
                            G_CALLBACK (selection_changed_cb), self);
  g_signal_connect_swapped (self->filter_entry, "notify::text", G_CALLBACK (filter_changed_cb), self);
  g_signal_connect_swapped (self->grouping_dropdown, "notify::selected", G_CALLBACK (compute), self);
  g_signal_connect_swapped (self->per_track_button, "toggled", G_CALLBACK (compute), self);
  clear_marks (self);
}
