/* test-app-neuron.c: a Neuron device profile opens on its NeuronCores'
 * page, whose figures are the analysis's; a finding or a cause of idle
 * time chosen there moves the timeline to it; a GPU trace has no such
 * page
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include <adwaita.h>
#include <glib/gstdio.h>

#include "app-test-utils.h"
#include "chrono-document-page.h"
#include "chrono-neuron-execution.h"
#include "chrono-neuron-ledger.h"
#include "chrono-neuron-metrics.h"
#include "chrono-neuron-op-item.h"
#include "chrono-neuron-ops-view.h"
#include "chrono-neuron-page.h"
#include "chrono-span-details.h"
#include "chrono-timeline.h"
#include "neuron-gen.h"

#define LOAD_TIMEOUT_MS 30000

static gboolean
page_done (gpointer data)
{
  GtkStack *stack = GTK_STACK (app_test_find_widget (data, GTK_TYPE_STACK));

  return g_strcmp0 (gtk_stack_get_visible_child_name (stack), "done") == 0;
}

/* The row of the page titled TITLE. */
static GtkWidget *
row_titled (GtkWidget  *root,
            const char *title)
{
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found;

      if (ADW_IS_PREFERENCES_ROW (child) &&
          g_strcmp0 (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (child)), title) == 0)
        return child;
      if ((found = row_titled (child, title)) != NULL)
        return found;
    }
  return NULL;
}

/* The figure a row shows. */
static const char *
value_of (GtkWidget *row)
{
  for (GtkWidget *child = gtk_widget_get_first_child (row); child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      const char *found;

      if (GTK_IS_LABEL (child) && gtk_widget_has_css_class (child, "numeric"))
        return gtk_label_get_text (GTK_LABEL (child));
      if ((found = value_of (child)) != NULL)
        return found;
    }
  return NULL;
}

/* The button whose label starts with PREFIX. */
static GtkWidget *
button_labelled (GtkWidget  *root,
                 const char *prefix)
{
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found;

      if (GTK_IS_LABEL (child) && g_str_has_prefix (gtk_label_get_text (GTK_LABEL (child)), prefix) &&
          (found = gtk_widget_get_ancestor (child, GTK_TYPE_BUTTON)) != NULL)
        return found;
      if ((found = button_labelled (child, prefix)) != NULL)
        return found;
    }
  return NULL;
}

/* The report's figure KEY of the first NeuronCore, or of its execution
 * EXECUTION's window (from 1; 0 the whole profile). */
static gdouble
report_window_figure (ChronoAnalysis *analysis,
                      guint           execution,
                      const char     *key)
{
  g_autofree char *json = chrono_analysis_to_json (analysis);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonArray *cores;
  JsonObject *core;

  g_assert_true (json_parser_load_from_data (parser, json, -1, &error));
  cores = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "neuron");
  g_assert_cmpuint (json_array_get_length (cores), >, 0);
  core = json_array_get_object_element (cores, 0);
  if (execution > 0)
    core = json_array_get_object_element (json_object_get_array_member (core, "executions"), execution - 1);
  return json_object_get_double_member (core, key);
}

static gdouble
report_figure (ChronoAnalysis *analysis,
               const char     *key)
{
  return report_window_figure (analysis, 0, key);
}

typedef struct {
  ChronoViewport *viewport;
  gint64          start;
  gint64          end;
} Range;

/* The view holds the range and little more: zoomed to it. */
static gboolean
zoomed_to_range (gpointer data)
{
  Range *r = data;
  gint64 width = chrono_viewport_get_end_ns (r->viewport) - chrono_viewport_get_start_ns (r->viewport);

  return chrono_viewport_get_start_ns (r->viewport) <= r->start && chrono_viewport_get_end_ns (r->viewport) >= r->end &&
         width <= (r->end - r->start) * 11 / 10 + 1000;
}

static gboolean
range_in_view (gpointer data)
{
  Range *r = data;

  return chrono_viewport_get_start_ns (r->viewport) <= r->start && chrono_viewport_get_end_ns (r->viewport) >= r->end &&
         chrono_viewport_get_end_ns (r->viewport) - chrono_viewport_get_start_ns (r->viewport) < 4 * (r->end - r->start) + 1000;
}

static const ChronoTracePart *
device_part (ChronoTrace *trace)
{
  for (guint i = 0; i < chrono_trace_get_n_parts (trace); i++)
    if (g_str_has_prefix (chrono_trace_get_part (trace, i)->format, "neuron-device"))
      return chrono_trace_get_part (trace, i);
  g_assert_not_reached ();
}

/* For the user guide: light, or dark under ADW_DEBUG_COLOR_SCHEME=prefer-dark. */
static void
screenshot (GtkWidget  *window,
            const char *name)
{
  g_autofree char *file = g_strdup_printf ("%s%s.png", name,
                                           adw_style_manager_get_dark (adw_style_manager_get_default ()) ? "-dark" : "");

  app_test_spin_for (300);
  app_test_screenshot (window, file);
}

/* The details of the host's nc_exec_running lead to the first
 * instruction it ran; those of an instruction, back to it. */
static void
check_execution_links (ChronoDocumentPage *page,
                       ChronoTimeline     *timeline)
{
  ChronoTrace *trace = chrono_document_page_get_trace (page);
  ChronoSpanDetails *details = CHRONO_SPAN_DETAILS (app_test_find_widget (GTK_WIDGET (page), CHRONO_TYPE_SPAN_DETAILS));
  ChronoViewport *viewport = chrono_timeline_get_viewport (timeline);
  ChronoNeuronExecution execution = { { G_MAXUINT32, 0 }, 0, 0 };
  ChronoSpanRef first, selected, launcher;
  GtkWidget *link, *button;
  Range range;

  for (guint32 ti = 0; ti < chrono_trace_get_n_tracks (trace) && execution.running.track == G_MAXUINT32; ti++)
    {
      const ChronoTrack *track = chrono_trace_get_track (trace, ti);

      for (guint32 i = 0; i < track->n_spans; i++)
        if (g_strcmp0 (chrono_trace_get_string (trace, chrono_track_get_name (track, i)), "nc_exec_running") == 0 &&
            chrono_neuron_execution_find (trace, (ChronoSpanRef) { ti, i }, &execution))
          break;
    }
  g_assert_cmpuint (execution.running.track, !=, G_MAXUINT32);
  g_assert_true (chrono_neuron_execution_first_instruction (trace, &execution, &first));

  g_assert_nonnull (details);
  chrono_span_details_show_span (details, &execution.running);
  g_assert_nonnull (app_test_find_label (GTK_WIDGET (details), "Its instructions, from the first"));
  link = gtk_widget_get_next_sibling (app_test_find_label (GTK_WIDGET (details), "Its instructions, from the first"));
  g_assert_true (GTK_IS_BUTTON (link));
  g_signal_emit_by_name (link, "clicked");
  g_assert_true (chrono_timeline_get_selection (timeline, &selected));
  g_assert_cmpuint (selected.track, ==, first.track);
  g_assert_cmpuint (selected.index, ==, first.index);

  /* Back from the instruction to its execution. */
  chrono_span_details_show_span (details, &first);
  g_assert_nonnull (app_test_find_label (GTK_WIDGET (details), "Runs in execution"));
  g_assert_nonnull (app_test_find_label (GTK_WIDGET (details), "Execution launched by"));

  /* The execution selected, its shortcut's action zooms to it. */
  chrono_viewport_show_all (viewport);
  chrono_timeline_select (timeline, &execution.running);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "document.show-selected-execution", NULL));
  range = (Range) { viewport, execution.start_ns, execution.end_ns };
  g_assert_true (app_test_spin_until (zoomed_to_range, &range, 5000));
  g_assert_true (chrono_timeline_get_selection (timeline, &selected));
  g_assert_cmpuint (selected.track, ==, first.track);
  g_assert_cmpuint (selected.index, ==, first.index);

  /* From the host call that launched it to the instructions it ran. */
  g_assert_true (chrono_neuron_execution_launcher (trace, &execution, &launcher));
  chrono_viewport_show_all (viewport);
  chrono_timeline_select (timeline, &launcher);
  chrono_span_details_show_span (details, &launcher);
  button = button_labelled (GTK_WIDGET (details), "Show Device Instructions");
  g_assert_nonnull (button);
  g_signal_emit_by_name (button, "clicked");
  g_assert_true (app_test_spin_until (zoomed_to_range, &range, 5000));
  g_assert_true (chrono_timeline_get_selection (timeline, &selected));
  g_assert_cmpuint (selected.track, ==, first.track);
  g_assert_cmpuint (selected.index, ==, first.index);
}

static void
test_device_profile (void)
{
  ChronoWindow *window = app_test_get_window ();
  g_autofree char *dir = g_build_filename (app_test_tmp_dir (), "neuron-page", NULL);
  g_autofree char *device = g_build_filename (dir, "device_profile_model_1.json", NULL);
  g_autofree char *system = g_build_filename (dir, "system_profile.json", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (dir);
  g_autoptr(GError) error = NULL;
  g_autofree char *hfu_text = NULL;
  g_autofree char *whole = NULL;
  NeuronGenOptions options;
  NeuronGenCounts counts;
  ChronoDocumentPage *page;
  ChronoFindingsPanel *panel;
  ChronoAnalysis *analysis;
  ChronoTimeline *timeline;
  ChronoViewport *viewport;
  AdwViewStack *stack;
  GtkWidget *neuron, *row, *finding_row = NULL, *button;
  const ChronoFinding *finding = NULL;
  const ChronoNeuronLedger *ledger = NULL;
  const ChronoNeuronGap *longest = NULL;
  ChronoSpanRef selected;
  Range range;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  neuron_gen_options_init (&options);
  options.plant = "compute,dma-bound,engine-bound,small-dma,transpose";
  options.instance = "trn2";
  options.plant_executions = 2;
  g_assert_true (neuron_gen_write_device (device, &options, &counts, &error));
  g_assert_no_error (error);
  g_assert_true (neuron_gen_write_system (system, &options, &counts, &error));
  g_assert_no_error (error);

  gtk_window_set_default_size (GTK_WINDOW (window), 1400, 1000);
  app_test_close_all_tabs (window);
  page = chrono_window_open_file (window, file);
  g_assert_true (app_test_wait_for_state (page, CHRONO_DOCUMENT_STATE_LOADED, LOAD_TIMEOUT_MS));

  /* The page comes first. */
  stack = ADW_VIEW_STACK (app_test_find_widget (GTK_WIDGET (page), ADW_TYPE_VIEW_STACK));
  g_assert_cmpstr (adw_view_stack_get_visible_child_name (stack), ==, "neuron");
  neuron = app_test_find_widget (GTK_WIDGET (page), CHRONO_TYPE_NEURON_PAGE);
  g_assert_nonnull (neuron);
  panel = CHRONO_FINDINGS_PANEL (app_test_find_widget (GTK_WIDGET (page), CHRONO_TYPE_FINDINGS_PANEL));
  timeline = CHRONO_TIMELINE (app_test_find_widget (GTK_WIDGET (page), CHRONO_TYPE_TIMELINE));
  viewport = chrono_timeline_get_viewport (timeline);
  g_assert_true (app_test_wait_for_analysis (panel, LOAD_TIMEOUT_MS));
  analysis = chrono_findings_panel_get_analysis (panel);
  g_assert_true (app_test_spin_until (page_done, neuron, 5000));

  /* Its HFU is the analysis's, to the digit shown. */
  row = row_titled (neuron, "HFU");
  g_assert_nonnull (row);
  hfu_text = g_strdup_printf ("%.1f %%", report_figure (analysis, "hfu_percent"));
  g_assert_true (isfinite (report_figure (analysis, "hfu_percent")));
  g_assert_nonnull (app_test_find_label (row, hfu_text));
  g_assert_true (app_test_wait_for_paint (neuron, 5000));
  screenshot (GTK_WIDGET (window), "neuron-summary");

  /* One execution: a window of its own, shorter than the whole. */
  whole = g_strdup (value_of (row_titled (neuron, "Total time")));
  chrono_neuron_page_set_window (CHRONO_NEURON_PAGE (neuron), 1);
  g_assert_cmpstr (value_of (row_titled (neuron, "Total time")), !=, whole);
  /* Its ledger is of its own instructions, on the host's clock. */
  g_assert_nonnull (button_labelled (neuron, "Waiting for DMA"));
  /* Shown on the timeline: zoomed to that execution. */
  chrono_viewport_show_all (viewport);
  g_assert_true (gtk_widget_activate_action (neuron, "neuron.show-window", NULL));
  g_assert_cmpstr (adw_view_stack_get_visible_child_name (stack), ==, "timeline");
  /* The folder moved the device profile onto the host's clock, and the
   * execution's times with it. */
  g_assert_cmpint (device_part (chrono_document_page_get_trace (page))->shift_ns, !=, 0);
  range = (Range) { viewport, (gint64) report_window_figure (analysis, 1, "start_ns"),
                    (gint64) report_window_figure (analysis, 1, "end_ns") };
  g_assert_cmpint (range.end - range.start, <, (gint64) report_figure (analysis, "total_time_ns"));
  g_assert_true (app_test_spin_until (zoomed_to_range, &range, 5000));
  adw_view_stack_set_visible_child_name (stack, "neuron");
  chrono_neuron_page_set_window (CHRONO_NEURON_PAGE (neuron), 0);
  g_assert_cmpstr (value_of (row_titled (neuron, "Total time")), ==, whole);

  /* A planted DMA-bound phase is a finding of the core's, first among them. */
  for (guint i = 0; i < chrono_analysis_get_n_findings (analysis) && finding_row == NULL; i++)
    if (g_str_has_prefix (chrono_analysis_get_finding (analysis, i)->rule, "neuron-dma"))
      {
        finding = chrono_analysis_get_finding (analysis, i);
        finding_row = row_titled (neuron, finding->title);
      }
  g_assert_nonnull (finding_row);

  /* Chosen, it shows on the timeline: its range in view. */
  chrono_viewport_show_all (viewport);
  g_signal_emit_by_name (gtk_widget_get_ancestor (finding_row, GTK_TYPE_LIST_BOX), "row-activated", finding_row);
  g_assert_cmpstr (adw_view_stack_get_visible_child_name (stack), ==, "timeline");
  range = (Range) { viewport, finding->start_ns, finding->end_ns };
  g_assert_true (app_test_spin_until (range_in_view, &range, 5000));

  /* A cause of the Tensor engine's idle time: its longest gap, the
   * instruction that ended it selected. */
  for (guint b = 0; b < chrono_analysis_get_n_breakdowns (analysis) && ledger == NULL; b++)
    ledger = chrono_analysis_get_neuron_ledger (analysis, b);
  g_assert_nonnull (ledger);
  for (guint i = 0; i < chrono_neuron_ledger_get_n_gaps (ledger); i++)
    {
      const ChronoNeuronGap *gap = chrono_neuron_ledger_get_gap (ledger, i);

      if (gap->cause == CHRONO_LEDGER_IDLE_DMA &&
          (longest == NULL || gap->end_ns - gap->start_ns > longest->end_ns - longest->start_ns))
        longest = gap;
    }
  g_assert_nonnull (longest);
  g_assert_cmpuint (longest->n_links, >, 0);
  adw_view_stack_set_visible_child_name (stack, "neuron");
  button = button_labelled (neuron, "Waiting for DMA");
  g_assert_nonnull (button);
  chrono_viewport_show_all (viewport);
  g_signal_emit_by_name (button, "clicked");
  g_assert_cmpstr (adw_view_stack_get_visible_child_name (stack), ==, "timeline");
  range = (Range) { viewport, longest->start_ns, longest->end_ns };
  g_assert_true (app_test_spin_until (range_in_view, &range, 5000));
  g_assert_true (chrono_timeline_get_selection (timeline, &selected));
  g_assert_cmpuint (selected.track, ==, chrono_neuron_ledger_get_link (ledger, longest->first_link)->span.track);
  g_assert_cmpuint (selected.index, ==, chrono_neuron_ledger_get_link (ledger, longest->first_link)->span.index);
  g_assert_true (app_test_wait_for_paint (GTK_WIDGET (timeline), 5000));
  /* The timeline at its widest. */
  chrono_document_page_set_show_findings (page, FALSE);
  screenshot (GTK_WIDGET (window), "neuron-timeline");

  check_execution_links (page, timeline);
  app_test_close_all_tabs (window);
  g_unlink (device);
  g_unlink (system);
  g_rmdir (dir);
}

/* The table's filter, not the menus' own search entries. */
static GtkWidget *
filter_entry (GtkWidget *root)
{
  g_autofree char *placeholder = NULL;

  if (GTK_IS_SEARCH_ENTRY (root))
    {
      g_object_get (root, "placeholder-text", &placeholder, NULL);
      if (g_strcmp0 (placeholder, "Filter operators") == 0)
        return root;
    }
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = filter_entry (child);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static guint
count_kind (ChronoNeuronOpTable *table,
            ChronoNeuronOpKind   kind)
{
  guint n = 0;

  for (guint i = 0; i < chrono_neuron_op_table_get_n_ops (table); i++)
    n += chrono_neuron_op_table_get_op (table, i)->kind == kind;
  return n;
}

static const ChronoNeuronOp *
row_op (GListModel *rows,
        guint       i)
{
  g_autoptr(ChronoNeuronOpItem) item = g_list_model_get_item (rows, i);

  /* The item holds a copy of the row; the view holds the item. */
  return chrono_neuron_op_item_get_op (item);
}

typedef struct {
  GListModel *rows;
  guint       n;
} Rows;

static gboolean
rows_are (gpointer data)
{
  Rows *r = data;

  return g_list_model_get_n_items (r->rows) == r->n;
}

/* FILE opened alone, loaded and analysed. */
static ChronoDocumentPage *
open_analysed (ChronoWindow         *window,
               GFile                *file,
               ChronoFindingsPanel **panel,
               ChronoTimeline      **timeline)
{
  ChronoDocumentPage *page;

  app_test_close_all_tabs (window);
  page = chrono_window_open_file (window, file);
  g_assert_true (app_test_wait_for_state (page, CHRONO_DOCUMENT_STATE_LOADED, LOAD_TIMEOUT_MS));
  *panel = CHRONO_FINDINGS_PANEL (app_test_find_widget (GTK_WIDGET (page), CHRONO_TYPE_FINDINGS_PANEL));
  *timeline = CHRONO_TIMELINE (app_test_find_widget (GTK_WIDGET (page), CHRONO_TYPE_TIMELINE));
  g_assert_true (app_test_wait_for_analysis (*panel, LOAD_TIMEOUT_MS));
  return page;
}

/* The operators' rows are built on a worker thread. */
static gboolean
ops_ready (gpointer data)
{
  return chrono_neuron_ops_view_get_ready (data);
}

/* The column of the table titled TITLE. */
static GtkColumnViewColumn *
column_titled (GtkColumnView *columns,
               const char    *title)
{
  GListModel *list = gtk_column_view_get_columns (columns);

  for (guint c = 0; c < g_list_model_get_n_items (list); c++)
    {
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (list, c);

      if (g_strcmp0 (gtk_column_view_column_get_title (column), title) == 0)
        return column;
    }
  return NULL;
}

/* The operator table: the library's rows at each level, filtered and
 * sorted; a row's instructions marked on the timeline, stepped through. */
static void
test_operators (void)
{
  ChronoWindow *window = app_test_get_window ();
  g_autofree char *dir = g_build_filename (app_test_tmp_dir (), "neuron-ops", NULL);
  g_autofree char *device = g_build_filename (dir, "device_profile_model_1.json", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (dir);
  g_autoptr(GError) error = NULL;
  g_autoptr(ChronoNeuronOpTable) table = NULL;
  NeuronGenOptions options;
  NeuronGenCounts counts;
  ChronoDocumentPage *page;
  ChronoFindingsPanel *panel;
  ChronoNeuronOpsView *view;
  ChronoTimeline *timeline;
  GListModel *rows;
  GtkColumnView *columns;
  GtkColumnViewColumn *column;
  const ChronoSpanRef *marked;
  ChronoSpanRef selected, chosen;
  ChronoSpanDetails *details;
  guint n_marked, n_all, n_match = 0;
  g_autofree char *needle = NULL;
  Rows wanted;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  neuron_gen_options_init (&options);
  options.plant = "compute,dma-bound,engine-bound";
  options.instance = "trn2";
  g_assert_true (neuron_gen_write_device (device, &options, &counts, &error));
  g_assert_no_error (error);
  page = open_analysed (window, file, &panel, &timeline);
  view = CHRONO_NEURON_OPS_VIEW (app_test_find_widget (GTK_WIDGET (page), CHRONO_TYPE_NEURON_OPS_VIEW));
  g_assert_nonnull (view);
  g_assert_true (app_test_spin_until (ops_ready, view, LOAD_TIMEOUT_MS));
  table = chrono_analysis_get_neuron_ops (chrono_findings_panel_get_analysis (panel), 0);
  g_assert_nonnull (table);
  rows = chrono_neuron_ops_view_get_rows (view);

  /* As many rows as the library has at each level. */
  chrono_neuron_ops_view_set_level (view, CHRONO_NEURON_OP_FRAMEWORK);
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, count_kind (table, CHRONO_NEURON_OP_FRAMEWORK));
  chrono_neuron_ops_view_set_level (view, CHRONO_NEURON_OP_HLO);
  n_all = count_kind (table, CHRONO_NEURON_OP_HLO);
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, n_all);
  g_assert_cmpuint (n_all, >, 1);

  /* Sorted by a column, both ways. */
  columns = GTK_COLUMN_VIEW (app_test_find_widget (GTK_WIDGET (view), GTK_TYPE_COLUMN_VIEW));
  column = column_titled (columns, "Instructions");
  g_assert_nonnull (column);
  /* One core: no column to tell cores apart. */
  g_assert_false (gtk_column_view_column_get_visible (column_titled (columns, "Core")));
  gtk_column_view_sort_by_column (columns, column, GTK_SORT_ASCENDING);
  for (guint i = 1; i < n_all; i++)
    g_assert_cmpuint (row_op (rows, i - 1)->instructions, <=, row_op (rows, i)->instructions);
  gtk_column_view_sort_by_column (columns, column, GTK_SORT_DESCENDING);
  for (guint i = 1; i < n_all; i++)
    g_assert_cmpuint (row_op (rows, i - 1)->instructions, >=, row_op (rows, i)->instructions);

  /* Filtered by name: the operators whose name holds the first's. */
  needle = g_strdup (row_op (rows, 0)->name);
  for (guint i = 0; i < chrono_neuron_op_table_get_n_ops (table); i++)
    n_match += chrono_neuron_op_table_get_op (table, i)->kind == CHRONO_NEURON_OP_HLO &&
               strstr (chrono_neuron_op_table_get_op (table, i)->name, needle) != NULL;
  g_assert_cmpuint (n_match, <, n_all);
  gtk_editable_set_text (GTK_EDITABLE (filter_entry (GTK_WIDGET (view))), needle);
  wanted = (Rows) { rows, n_match };
  g_assert_true (app_test_spin_until (rows_are, &wanted, 5000));
  gtk_editable_set_text (GTK_EDITABLE (filter_entry (GTK_WIDGET (view))), "");
  wanted = (Rows) { rows, n_all };
  g_assert_true (app_test_spin_until (rows_are, &wanted, 5000));

  adw_view_stack_set_visible_child_name (ADW_VIEW_STACK (app_test_find_widget (GTK_WIDGET (page), ADW_TYPE_VIEW_STACK)),
                                         "neuron-operators");
  g_assert_true (app_test_wait_for_paint (GTK_WIDGET (view), 5000));
  screenshot (GTK_WIDGET (window), "neuron-operators");

  /* A row's instructions marked, the first selected, then the next. */
  chrono_neuron_ops_view_activate (view, 0);
  marked = chrono_neuron_ops_view_get_instructions (view, &n_marked);
  g_assert_cmpuint (n_marked, >, 1);
  g_assert_cmpuint (n_marked, <=, row_op (rows, 0)->instructions);
  g_assert_true (chrono_timeline_get_selection (timeline, &selected));
  g_assert_cmpuint (selected.track, ==, marked[0].track);
  g_assert_cmpuint (selected.index, ==, marked[0].index);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "ops.next-instruction", NULL));
  g_assert_true (chrono_timeline_get_selection (timeline, &selected));
  g_assert_cmpuint (selected.track, ==, marked[1].track);
  g_assert_cmpuint (selected.index, ==, marked[1].index);

  /* From an instruction's details back to its operator, filtered to and
   * marked, the instruction still the one selected. */
  chosen = marked[n_marked - 1];
  gtk_editable_set_text (GTK_EDITABLE (filter_entry (GTK_WIDGET (view))), "");
  details = CHRONO_SPAN_DETAILS (app_test_find_widget (GTK_WIDGET (page), CHRONO_TYPE_SPAN_DETAILS));
  chrono_span_details_show_span (details, &chosen);
  g_signal_emit_by_name (button_labelled (GTK_WIDGET (details), "Show Its Operator"), "clicked");
  g_assert_cmpuint (g_list_model_get_n_items (rows), <, n_all);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (filter_entry (GTK_WIDGET (view)))), ==, row_op (rows, 0)->name);
  marked = chrono_neuron_ops_view_get_instructions (view, &n_marked);
  g_assert_cmpuint (n_marked, >, 1);
  g_assert_true (chrono_timeline_get_selection (timeline, &selected));
  g_assert_cmpuint (selected.track, ==, chosen.track);
  g_assert_cmpuint (selected.index, ==, chosen.index);

  app_test_close_all_tabs (window);
  g_unlink (device);
  g_rmdir (dir);
}

static guint
row_core (GListModel *rows,
          guint       i)
{
  g_autoptr(ChronoNeuronOpItem) item = g_list_model_get_item (rows, i);

  return chrono_neuron_op_item_get_core (item);
}

/* A folder of two NeuronCores' profiles: both cores' operators in one
 * table, told apart by a Core column; a row of the second core leads to
 * its instructions on that core's tracks, and a core chosen shows its
 * rows alone. */
static void
test_operators_of_two_cores (void)
{
  ChronoWindow *window = app_test_get_window ();
  g_autofree char *dir = g_build_filename (app_test_tmp_dir (), "neuron-cores", NULL);
  g_autofree char *first = g_build_filename (dir, "device_profile_nc0.json", NULL);
  g_autofree char *second = g_build_filename (dir, "device_profile_nc1.json", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (dir);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) cores = NULL;
  g_autoptr(ChronoNeuronOpTable) table0 = NULL, table1 = NULL;
  NeuronGenOptions options;
  NeuronGenCounts counts;
  ChronoDocumentPage *page;
  ChronoFindingsPanel *panel;
  ChronoAnalysis *analysis;
  ChronoNeuronOpsView *view;
  ChronoTimeline *timeline;
  GtkColumnView *columns;
  GtkColumnViewColumn *core_column;
  GListModel *rows;
  const ChronoSpanRef *marked;
  ChronoSpanRef selected;
  guint32 process1;
  guint n0, n1, n_marked, n_second = 0;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  neuron_gen_options_init (&options);
  options.plant = "compute,dma-bound";
  options.instance = "trn2";
  g_assert_true (neuron_gen_write_device (first, &options, &counts, &error));
  g_assert_no_error (error);
  options.nc_idx = 1;
  options.plant = "transpose,engine-bound";
  g_assert_true (neuron_gen_write_device (second, &options, &counts, &error));
  g_assert_no_error (error);
  page = open_analysed (window, file, &panel, &timeline);
  analysis = chrono_findings_panel_get_analysis (panel);
  cores = chrono_neuron_metrics_for_analysis (analysis);
  g_assert_cmpuint (cores->len, ==, 2);
  process1 = chrono_neuron_metrics_get_device (g_ptr_array_index (cores, 1))->process;
  table0 = chrono_analysis_get_neuron_ops (analysis, 0);
  table1 = chrono_analysis_get_neuron_ops (analysis, 1);
  n0 = count_kind (table0, CHRONO_NEURON_OP_HLO);
  n1 = count_kind (table1, CHRONO_NEURON_OP_HLO);
  g_assert_cmpuint (n1, >, 0);

  view = CHRONO_NEURON_OPS_VIEW (app_test_find_widget (GTK_WIDGET (page), CHRONO_TYPE_NEURON_OPS_VIEW));
  g_assert_true (app_test_spin_until (ops_ready, view, LOAD_TIMEOUT_MS));
  rows = chrono_neuron_ops_view_get_rows (view);
  chrono_neuron_ops_view_set_level (view, CHRONO_NEURON_OP_HLO);
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, n0 + n1);
  for (guint i = 0; i < n0 + n1; i++)
    n_second += row_core (rows, i) == 1;
  g_assert_cmpuint (n_second, ==, n1);

  /* The Core column shows, and sorts the second core's rows first. */
  columns = GTK_COLUMN_VIEW (app_test_find_widget (GTK_WIDGET (view), GTK_TYPE_COLUMN_VIEW));
  core_column = column_titled (columns, "Core");
  g_assert_nonnull (core_column);
  g_assert_true (gtk_column_view_column_get_visible (core_column));
  gtk_column_view_sort_by_column (columns, core_column, GTK_SORT_DESCENDING);
  g_assert_cmpuint (row_core (rows, 0), ==, 1);
  g_assert_cmpuint (row_core (rows, n0 + n1 - 1), ==, 0);

  /* Its row's instructions are the second core's, the first selected. */
  chrono_neuron_ops_view_activate (view, 0);
  marked = chrono_neuron_ops_view_get_instructions (view, &n_marked);
  g_assert_cmpuint (n_marked, >, 0);
  for (guint i = 0; i < n_marked; i++)
    g_assert_cmpuint (chrono_trace_get_track (chrono_document_page_get_trace (page), marked[i].track)->process, ==, process1);
  g_assert_true (chrono_timeline_get_selection (timeline, &selected));
  g_assert_cmpuint (selected.track, ==, marked[0].track);
  g_assert_cmpuint (selected.index, ==, marked[0].index);

  /* One core chosen: its rows alone. */
  chrono_neuron_ops_view_set_core (view, 1);
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, n1);
  for (guint i = 0; i < n1; i++)
    g_assert_cmpuint (row_core (rows, i), ==, 1);
  chrono_neuron_ops_view_set_core (view, CHRONO_NEURON_OPS_VIEW_ALL_CORES);
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, n0 + n1);

  app_test_close_all_tabs (window);
  g_unlink (first);
  g_unlink (second);
  g_rmdir (dir);
}

/* A GPU trace opens on its timeline, with no NeuronCores' page. */
static void
test_gpu_trace (void)
{
  ChronoWindow *window = app_test_get_window ();
  g_autofree char *path = app_test_write_trace ("gpu.json", 0, 2);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  ChronoDocumentPage *page = chrono_window_open_file (window, file);
  AdwViewStack *stack;

  g_assert_true (app_test_wait_for_state (page, CHRONO_DOCUMENT_STATE_LOADED, LOAD_TIMEOUT_MS));
  stack = ADW_VIEW_STACK (app_test_find_widget (GTK_WIDGET (page), ADW_TYPE_VIEW_STACK));
  g_assert_cmpstr (adw_view_stack_get_visible_child_name (stack), ==, "timeline");
  g_assert_null (adw_view_stack_get_child_by_name (stack, "neuron"));
  g_assert_null (app_test_find_widget (GTK_WIDGET (page), CHRONO_TYPE_NEURON_PAGE));
  app_test_close_all_tabs (window);
}

int
main (int   argc,
      char *argv[])
{
  if (!app_test_init (&argc, &argv))
    return 77;
  g_test_add_func ("/app/neuron/device-profile", test_device_profile);
  g_test_add_func ("/app/neuron/operators", test_operators);
  g_test_add_func ("/app/neuron/operators-of-two-cores", test_operators_of_two_cores);
  g_test_add_func ("/app/neuron/gpu-trace", test_gpu_trace);
  return g_test_run ();
}
