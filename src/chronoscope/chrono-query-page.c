/* chrono-query-page.c: SQL over the trace
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "chrono-format.h"
#include "chrono-query-page.h"
#include "chrono-query-row.h"
#include "chrono-sortable-column.h"

/* Queries kept in the history menu. */
#define HISTORY_SIZE 20
/* Characters of a query the history menu shows. */
#define HISTORY_LABEL_CHARS 60

static const char example_sql[] =
  "SELECT name, COUNT(*) AS calls, SUM(dur) AS total_ns, MAX(dur) AS longest_ns\n"
  "FROM spans\n"
  "WHERE kind = 'kernel'\n"
  "GROUP BY name\n"
  "ORDER BY total_ns DESC\n"
  "LIMIT 20";

struct _ChronoQueryPage
{
  GtkWidget            parent_instance;

  ChronoFindingsPanel *panel;
  ChronoTimeline      *timeline;
  ChronoTrace         *trace;
  ChronoQuery         *query;       /* made when first needed */
  gboolean             stale;       /* the analysis changed while a query ran */
  GCancellable        *cancellable; /* of the query that runs */
  ChronoQueryResult   *result;
  char                *error;
  GListStore          *rows;        /* ChronoQueryRow */
  GPtrArray           *history;     /* char *, the last run first */

  GtkTextView         *editor;
  GtkLabel            *error_label;
  GtkLabel            *status_label;
  GtkMenuButton       *history_button;
  GtkColumnView       *result_view;
  GtkTextView         *schema_view;
};

G_DEFINE_FINAL_TYPE (ChronoQueryPage, chrono_query_page, GTK_TYPE_WIDGET)

enum {
  TIMELINE_REQUESTED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* -------------------------------------------------------------------- */
/* The engine                                                           */

static ChronoQuery *
ensure_query (ChronoQueryPage  *self,
              GError          **error)
{
  g_autofree char *schema = NULL;

  if (self->query != NULL)
    return self->query;
  self->query = chrono_query_new (&self->trace, 1, chrono_findings_panel_get_analysis (self->panel), error);
  if (self->query == NULL)
    return NULL;
  schema = chrono_query_dup_schema (self->query);
  gtk_text_buffer_set_text (gtk_text_view_get_buffer (self->schema_view), schema, -1);
  return self->query;
}

/* With the analysis done, its tables are worth a new engine. */
static void
analysis_changed_cb (ChronoQueryPage *self)
{
  if (self->cancellable != NULL)
    self->stale = TRUE;
  else
    g_clear_object (&self->query);
}

/* The span whose id is in COLUMN of row R, as the engine numbers them. */
static gboolean
find_span (ChronoQueryPage *self,
           guint            r,
           gint             column,
           ChronoSpanRef   *span)
{
  g_autoptr(GError) error = NULL;

  return column >= 0 && chrono_query_result_get_cell_type (self->result, r, (guint) column) == CHRONO_QUERY_INTEGER &&
         ensure_query (self, &error) != NULL &&
         chrono_query_find_span (self->query, chrono_query_result_get_int (self->result, r, (guint) column), NULL, span);
}

/* -------------------------------------------------------------------- */
/* The result                                                           */

static gint
find_column (ChronoQueryResult *result,
             const char        *name)
{
  for (guint c = 0; result != NULL && c < chrono_query_result_get_n_columns (result); c++)
    if (g_ascii_strcasecmp (chrono_query_result_get_column_name (result, c), name) == 0)
      return (gint) c;
  return -1;
}

static void
setup_cell (GtkSignalListItemFactory *factory,
            GtkListItem              *item,
            gpointer                  data)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 60);
  gtk_list_item_set_child (item, label);
}

static void
bind_cell (GtkSignalListItemFactory *factory,
           GtkListItem              *item,
           gpointer                  data)
{
  ChronoQueryRow *row = gtk_list_item_get_item (item);
  ChronoQueryResult *result = chrono_query_row_get_result (row);
  guint column = GPOINTER_TO_UINT (data), r = chrono_query_row_get_row (row);
  g_autofree char *text = chrono_query_result_dup_cell_string (result, r, column);
  ChronoQueryType type = chrono_query_result_get_cell_type (result, r, column);
  GtkWidget *label = gtk_list_item_get_child (item);

  gtk_label_set_text (GTK_LABEL (label), text);
  gtk_label_set_xalign (GTK_LABEL (label), type == CHRONO_QUERY_TEXT ? 0 : 1);
  if (type == CHRONO_QUERY_TEXT)
    {
      gtk_widget_remove_css_class (label, "numeric");
      gtk_widget_set_tooltip_text (label, text);
    }
  else
    gtk_widget_add_css_class (label, "numeric");
}

/* Numbers before text, as SQLite orders them. */
static int
compare_cells (gconstpointer a,
               gconstpointer b,
               gpointer      data)
{
  ChronoQueryRow *x = CHRONO_QUERY_ROW ((gpointer) a), *y = CHRONO_QUERY_ROW ((gpointer) b);
  ChronoQueryResult *result = chrono_query_row_get_result (x);
  guint column = GPOINTER_TO_UINT (data);
  guint i = chrono_query_row_get_row (x), j = chrono_query_row_get_row (y);
  ChronoQueryType s = chrono_query_result_get_cell_type (result, i, column);
  ChronoQueryType t = chrono_query_result_get_cell_type (result, j, column);
  gdouble u, v;

  if (s == CHRONO_QUERY_TEXT && t == CHRONO_QUERY_TEXT)
    return g_utf8_collate (chrono_query_result_get_text (result, i, column),
                           chrono_query_result_get_text (result, j, column));
  if ((s == CHRONO_QUERY_TEXT) != (t == CHRONO_QUERY_TEXT))
    return s == CHRONO_QUERY_TEXT ? 1 : -1;
  if (s == CHRONO_QUERY_INTEGER && t == CHRONO_QUERY_INTEGER)
    {
      gint64 p = chrono_query_result_get_int (result, i, column), q = chrono_query_result_get_int (result, j, column);

      return (p > q) - (p < q);
    }
  u = chrono_query_result_get_real (result, i, column);
  v = chrono_query_result_get_real (result, j, column);
  return (u > v) - (u < v);
}

static void
set_columns (ChronoQueryPage *self)
{
  GListModel *columns = gtk_column_view_get_columns (self->result_view);

  while (g_list_model_get_n_items (columns) > 0)
    {
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, 0);

      gtk_column_view_remove_column (self->result_view, column);
    }
  for (guint c = 0; self->result != NULL && c < chrono_query_result_get_n_columns (self->result); c++)
    chrono_sortable_column_append (self->result_view, chrono_query_result_get_column_name (self->result, c),
                                   G_CALLBACK (setup_cell), G_CALLBACK (bind_cell), compare_cells, GUINT_TO_POINTER (c));
}

static void
show_result (ChronoQueryPage *self)
{
  guint n = self->result != NULL ? chrono_query_result_get_n_rows (self->result) : 0;
  g_autofree char *count = chrono_format_count (n);
  g_autofree char *text = NULL;

  g_list_store_remove_all (self->rows);
  set_columns (self);
  for (guint r = 0; r < n; r++)
    {
      g_autoptr(ChronoQueryRow) row = chrono_query_row_new (self->result, r);

      g_list_store_append (self->rows, row);
    }
  if (self->result == NULL)
    text = g_strdup ("");
  else if (chrono_query_result_is_truncated (self->result))
    /* Translators: the rows a query kept, it had more; then how long it ran */
    text = g_strdup_printf (_("The first %s rows, more were left out · %.0f ms"), count,
                            chrono_query_result_get_elapsed_ns (self->result) / 1e6);
  else
    /* Translators: how many rows a query gave and how long it ran */
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s row · %.0f ms", "%s rows · %.0f ms", n), count,
                            chrono_query_result_get_elapsed_ns (self->result) / 1e6);
  gtk_label_set_text (self->status_label, text);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "query.mark", find_column (self->result, "id") >= 0);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "query.show-row",
                                 find_column (self->result, "id") >= 0 || find_column (self->result, "ts") >= 0);
}

static void
show_error (ChronoQueryPage *self,
            const char      *message,
            gint             offset)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (self->editor);

  g_free (self->error);
  self->error = g_strdup (message);
  gtk_label_set_text (self->error_label, message != NULL ? message : "");
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), message != NULL);
  /* The cursor where SQLite found the fault. */
  if (message != NULL && offset >= 0)
    {
      GtkTextIter start, end, at;
      g_autofree char *sql = NULL;

      gtk_text_buffer_get_bounds (buffer, &start, &end);
      sql = gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
      if ((gsize) offset <= strlen (sql))
        {
          gtk_text_buffer_get_iter_at_offset (buffer, &at, (gint) g_utf8_pointer_to_offset (sql, sql + offset));
          gtk_text_buffer_place_cursor (buffer, &at);
        }
    }
}

/* -------------------------------------------------------------------- */
/* Running                                                              */

static void
run_thread (GTask        *task,
            gpointer      source_object,
            gpointer      task_data,
            GCancellable *cancellable)
{
  ChronoQueryPage *self = source_object;
  GError *error = NULL;
  ChronoQueryResult *result = chrono_query_run (self->query, task_data, NULL, cancellable, &error);

  if (result == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, result, g_object_unref);
}

static void
update_actions (ChronoQueryPage *self)
{
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "query.run", self->cancellable == NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "query.stop", self->cancellable != NULL);
}

static void
run_done_cb (GObject      *source,
             GAsyncResult *res,
             gpointer      user_data)
{
  ChronoQueryPage *self = CHRONO_QUERY_PAGE (source);
  g_autoptr(GError) error = NULL;
  ChronoQueryResult *result = g_task_propagate_pointer (G_TASK (res), &error);

  if (self->rows == NULL)  /* disposed while it ran */
    {
      g_clear_object (&result);
      return;
    }
  g_clear_object (&self->cancellable);
  g_clear_object (&self->result);
  self->result = result;
  if (result == NULL && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    show_error (self, _("The query was stopped."), -1);
  else
    show_error (self, error != NULL ? error->message : NULL,
                error != NULL ? chrono_query_get_error_offset (self->query) : -1);
  show_result (self);
  if (self->stale)
    g_clear_object (&self->query);
  self->stale = FALSE;
  update_actions (self);
}

/* The history is the user's, shared by every window and kept across
 * runs: a JSON array of query texts, the last run first. */
static char *
history_path (void)
{
  return g_build_filename (g_get_user_data_dir (), "chronoscope", "query-history.json", NULL);
}

/* Puts SQL first in the history, once, and keeps it to HISTORY_SIZE. */
static void
add_to_history (ChronoQueryPage *self,
                const char      *sql,
                gboolean         first)
{
  for (guint i = 0; i < self->history->len; i++)
    if (g_str_equal (g_ptr_array_index (self->history, i), sql))
      {
        if (!first)
          return;
        g_ptr_array_remove_index (self->history, i);
        break;
      }
  if (first)
    g_ptr_array_insert (self->history, 0, g_strdup (sql));
  else
    g_ptr_array_add (self->history, g_strdup (sql));
  if (self->history->len > HISTORY_SIZE)
    g_ptr_array_set_size (self->history, HISTORY_SIZE);
}

/* The history as the file has it now (another window may have added to
 * it); a missing file is an empty history. */
static void
load_history (ChronoQueryPage *self)
{
  g_autofree char *path = history_path ();
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonNode *root;
  JsonArray *array;

  g_ptr_array_set_size (self->history, 0);
  if (!json_parser_load_from_mapped_file (parser, path, &error))
    {
      if (!g_error_matches (error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
        g_warning ("%s: %s", path, error->message);
      return;
    }
  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_ARRAY (root))
    {
      g_warning ("%s: expected a JSON array of query texts", path);
      return;
    }
  array = json_node_get_array (root);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *node = json_array_get_element (array, i);

      if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
        add_to_history (self, json_node_get_string (node), FALSE);
      else
        g_warning ("%s: element %u: expected a query's text, a string", path, i);
    }
}

static void
save_history (ChronoQueryPage *self)
{
  g_autofree char *path = history_path ();
  g_autofree char *dir = g_path_get_dirname (path);
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  json_builder_begin_array (builder);
  for (guint i = 0; i < self->history->len; i++)
    json_builder_add_string_value (builder, g_ptr_array_index (self->history, i));
  json_builder_end_array (builder);
  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);
  json_generator_set_pretty (generator, TRUE);
  text = json_generator_to_data (generator, NULL);
  /* Written whole or not at all: a new file renamed over the old. */
  if (g_mkdir_with_parents (dir, 0700) != 0 ||
      !g_file_set_contents_full (path, text, -1, G_FILE_SET_CONTENTS_CONSISTENT, 0600, &error))
    g_warning ("%s: the query history was not saved: %s", path,
               error != NULL ? error->message : g_strerror (errno));
}

static void
update_history_menu (ChronoQueryPage *self)
{
  g_autoptr(GMenu) menu = g_menu_new ();

  for (guint i = 0; i < self->history->len; i++)
    {
      g_autofree char *line = g_strdup (g_ptr_array_index (self->history, i));
      g_autoptr(GMenuItem) item = NULL;

      /* One line, cut short: the menu is to recognise a query by. */
      g_strdelimit (g_strstrip (line), "\n\t", ' ');
      if (g_utf8_strlen (line, -1) > HISTORY_LABEL_CHARS)
        strcpy (g_utf8_offset_to_pointer (line, HISTORY_LABEL_CHARS - 1), "…");
      item = g_menu_item_new (line, NULL);
      g_menu_item_set_action_and_target (item, "query.recall", "u", i);
      g_menu_append_item (menu, item);
    }
  gtk_menu_button_set_menu_model (self->history_button, G_MENU_MODEL (menu));
}

static void
remember (ChronoQueryPage *self,
          const char      *sql)
{
  load_history (self);
  add_to_history (self, sql, TRUE);
  save_history (self);
  update_history_menu (self);
}

void
chrono_query_page_run (ChronoQueryPage *self,
                       const char      *sql)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GError) error = NULL;

  g_return_if_fail (CHRONO_IS_QUERY_PAGE (self));
  g_return_if_fail (sql != NULL);

  if (self->cancellable != NULL)
    return;
  gtk_text_buffer_set_text (gtk_text_view_get_buffer (self->editor), sql, -1);
  remember (self, sql);
  if (ensure_query (self, &error) == NULL)
    {
      show_error (self, error->message, -1);
      return;
    }
  self->cancellable = g_cancellable_new ();
  update_actions (self);
  gtk_label_set_text (self->status_label, _("Running…"));
  task = g_task_new (self, self->cancellable, run_done_cb, NULL);
  g_task_set_task_data (task, g_strdup (sql), g_free);
  g_task_run_in_thread (task, run_thread);
}

static void
run_action (GtkWidget  *widget,
            const char *action_name,
            GVariant   *parameter)
{
  ChronoQueryPage *self = CHRONO_QUERY_PAGE (widget);
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (self->editor);
  GtkTextIter start, end;
  g_autofree char *sql = NULL;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  sql = gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
  chrono_query_page_run (self, sql);
}

static void
stop_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  g_cancellable_cancel (CHRONO_QUERY_PAGE (widget)->cancellable);
}

static void
recall_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  ChronoQueryPage *self = CHRONO_QUERY_PAGE (widget);
  guint i = g_variant_get_uint32 (parameter);

  if (i < self->history->len)
    gtk_text_buffer_set_text (gtk_text_view_get_buffer (self->editor), g_ptr_array_index (self->history, i), -1);
  gtk_widget_grab_focus (GTK_WIDGET (self->editor));
}

/* -------------------------------------------------------------------- */
/* On the timeline                                                      */

/* The row's span (its id) selected, or else its ts and dur marked over
 * its track_id, if it has one. */
static gboolean
show_row (ChronoQueryPage *self,
          guint            r)
{
  gint id = find_column (self->result, "id"), ts = find_column (self->result, "ts");
  gint dur = find_column (self->result, "dur"), track = find_column (self->result, "track_id");
  ChronoSpanRef span;
  gint64 start, end;
  guint t;

  if (find_span (self, r, id, &span))
    {
      chrono_timeline_select (self->timeline, &span);
      chrono_timeline_reveal_span (self->timeline, span);
      g_signal_emit (self, signals[TIMELINE_REQUESTED], 0);
      return TRUE;
    }
  if (ts < 0 || chrono_query_result_get_cell_type (self->result, r, ts) != CHRONO_QUERY_INTEGER)
    return FALSE;
  start = chrono_query_result_get_int (self->result, r, ts);
  end = start + (dur >= 0 ? MAX (chrono_query_result_get_int (self->result, r, dur), 0) : 0);
  t = track >= 0 ? (guint) chrono_query_result_get_int (self->result, r, track) : 0;
  chrono_timeline_set_highlight (self->timeline, start, end, track >= 0 ? &t : NULL, track >= 0 ? 1 : 0);
  /* Its own length of context either side. */
  chrono_viewport_zoom_to_range (chrono_timeline_get_viewport (self->timeline), start - MAX (end - start, 1000),
                                 end + MAX (end - start, 1000));
  g_signal_emit (self, signals[TIMELINE_REQUESTED], 0);
  return TRUE;
}

static guint
selected_row (ChronoQueryPage *self)
{
  GtkSelectionModel *model = gtk_column_view_get_model (self->result_view);
  g_autoptr(ChronoQueryRow) row = g_list_model_get_item (G_LIST_MODEL (model),
                                                         gtk_single_selection_get_selected (GTK_SINGLE_SELECTION (model)));

  return row != NULL ? chrono_query_row_get_row (row) : G_MAXUINT;
}

static void
row_activated_cb (ChronoQueryPage *self,
                  guint            position)
{
  g_autoptr(ChronoQueryRow) row = g_list_model_get_item (G_LIST_MODEL (gtk_column_view_get_model (self->result_view)),
                                                         position);

  if (row == NULL || !show_row (self, chrono_query_row_get_row (row)))
    gtk_widget_error_bell (GTK_WIDGET (self));
}

static void
show_row_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  ChronoQueryPage *self = CHRONO_QUERY_PAGE (widget);
  guint r = selected_row (self);

  if (r == G_MAXUINT || !show_row (self, r))
    gtk_widget_error_bell (widget);
}

/* Every row's span (its id) marked, as a row of the area table marks its
 * spans. */
static void
mark_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  ChronoQueryPage *self = CHRONO_QUERY_PAGE (widget);
  g_autoptr(GArray) spans = g_array_new (FALSE, FALSE, sizeof (ChronoSpanRef));
  gint id = find_column (self->result, "id");

  for (guint r = 0; id >= 0 && r < chrono_query_result_get_n_rows (self->result); r++)
    {
      ChronoSpanRef span;

      if (find_span (self, r, id, &span))
        g_array_append_val (spans, span);
    }
  chrono_timeline_set_path (self->timeline, (const ChronoSpanRef *) spans->data, spans->len);
  if (spans->len > 0)
    {
      chrono_timeline_select (self->timeline, &g_array_index (spans, ChronoSpanRef, 0));
      chrono_timeline_reveal_span (self->timeline, g_array_index (spans, ChronoSpanRef, 0));
    }
  g_signal_emit (self, signals[TIMELINE_REQUESTED], 0);
}

/* -------------------------------------------------------------------- */
/* GObject                                                              */

ChronoQueryResult *
chrono_query_page_get_result (ChronoQueryPage *self)
{
  g_return_val_if_fail (CHRONO_IS_QUERY_PAGE (self), NULL);
  return self->result;
}

const char *
chrono_query_page_get_error (ChronoQueryPage *self)
{
  g_return_val_if_fail (CHRONO_IS_QUERY_PAGE (self), NULL);
  return self->error;
}

gboolean
chrono_query_page_is_running (ChronoQueryPage *self)
{
  g_return_val_if_fail (CHRONO_IS_QUERY_PAGE (self), FALSE);
  return self->cancellable != NULL;
}

GListModel *
chrono_query_page_get_rows (ChronoQueryPage *self)
{
  g_return_val_if_fail (CHRONO_IS_QUERY_PAGE (self), NULL);
  return G_LIST_MODEL (gtk_column_view_get_model (self->result_view));
}

static void
page_mapped_cb (ChronoQueryPage *self)
{
  g_autoptr(GError) error = NULL;

  /* The tables at hand before the first query. */
  if (ensure_query (self, &error) == NULL)
    show_error (self, error->message, -1);
}

static void
chrono_query_page_dispose (GObject *object)
{
  ChronoQueryPage *self = CHRONO_QUERY_PAGE (object);
  GtkWidget *child;

  g_cancellable_cancel (self->cancellable);
  gtk_widget_dispose_template (GTK_WIDGET (self), CHRONO_TYPE_QUERY_PAGE);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  g_clear_object (&self->panel);
  g_clear_object (&self->timeline);
  g_clear_object (&self->result);
  g_clear_object (&self->rows);
  G_OBJECT_CLASS (chrono_query_page_parent_class)->dispose (object);
}

static void
chrono_query_page_finalize (GObject *object)
{
  ChronoQueryPage *self = CHRONO_QUERY_PAGE (object);

  /* A query still running holds the page until it returns. */
  g_clear_object (&self->query);
  g_clear_object (&self->trace);
  g_clear_object (&self->cancellable);
  g_free (self->error);
  g_ptr_array_unref (self->history);
  G_OBJECT_CLASS (chrono_query_page_parent_class)->finalize (object);
}

static void
chrono_query_page_class_init (ChronoQueryPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = chrono_query_page_dispose;
  object_class->finalize = chrono_query_page_finalize;

  /* A row shown or marked: the timeline shows it. */
  signals[TIMELINE_REQUESTED] = g_signal_new ("timeline-requested", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                              0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/chronoscope/Chronoscope/chrono-query-page.ui");
  gtk_widget_class_bind_template_child (widget_class, ChronoQueryPage, editor);
  gtk_widget_class_bind_template_child (widget_class, ChronoQueryPage, error_label);
  gtk_widget_class_bind_template_child (widget_class, ChronoQueryPage, status_label);
  gtk_widget_class_bind_template_child (widget_class, ChronoQueryPage, history_button);
  gtk_widget_class_bind_template_child (widget_class, ChronoQueryPage, result_view);
  gtk_widget_class_bind_template_child (widget_class, ChronoQueryPage, schema_view);
  gtk_widget_class_bind_template_callback (widget_class, row_activated_cb);
  gtk_widget_class_install_action (widget_class, "query.run", NULL, run_action);
  gtk_widget_class_install_action (widget_class, "query.stop", NULL, stop_action);
  gtk_widget_class_install_action (widget_class, "query.recall", "u", recall_action);
  gtk_widget_class_install_action (widget_class, "query.show-row", NULL, show_row_action);
  gtk_widget_class_install_action (widget_class, "query.mark", NULL, mark_action);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "querypage");
}

static void
chrono_query_page_init (ChronoQueryPage *self)
{
  GtkEventController *shortcuts;
  GtkSortListModel *sorted;

  gtk_widget_init_template (GTK_WIDGET (self));
  self->history = g_ptr_array_new_with_free_func (g_free);
  load_history (self);
  update_history_menu (self);
  self->rows = g_list_store_new (CHRONO_TYPE_QUERY_ROW);
  sorted = gtk_sort_list_model_new (G_LIST_MODEL (g_object_ref (self->rows)),
                                    g_object_ref (gtk_column_view_get_sorter (self->result_view)));
  gtk_column_view_set_model (self->result_view, GTK_SELECTION_MODEL (gtk_single_selection_new (G_LIST_MODEL (sorted))));
  gtk_text_buffer_set_text (gtk_text_view_get_buffer (self->editor), example_sql, -1);
  /* Ctrl+Enter runs the query before the editor takes the Enter. */
  shortcuts = gtk_shortcut_controller_new ();
  gtk_event_controller_set_propagation_phase (shortcuts, GTK_PHASE_CAPTURE);
  gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (shortcuts),
                                        gtk_shortcut_new (gtk_keyval_trigger_new (GDK_KEY_Return, GDK_CONTROL_MASK),
                                                          gtk_named_action_new ("query.run")));
  gtk_widget_add_controller (GTK_WIDGET (self), shortcuts);
  g_signal_connect (self, "map", G_CALLBACK (page_mapped_cb), NULL);
  update_actions (self);
  show_result (self);
}

GtkWidget *
chrono_query_page_new (ChronoFindingsPanel *panel)
{
  ChronoQueryPage *self;

  g_return_val_if_fail (CHRONO_IS_FINDINGS_PANEL (panel), NULL);
  self = g_object_new (CHRONO_TYPE_QUERY_PAGE, NULL);
  self->panel = g_object_ref (panel);
  g_object_get (panel, "timeline", &self->timeline, NULL);
  self->trace = g_object_ref (chrono_timeline_get_trace (self->timeline));
  g_signal_connect_object (panel, "notify::analysis", G_CALLBACK (analysis_changed_cb), self, G_CONNECT_SWAPPED);
  return GTK_WIDGET (self);
}
