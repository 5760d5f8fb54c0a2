/* test-app-graph.c: the dependency graph below the timeline, on a real
 * Kineto trace: the neighbourhood of a selected kernel drawn in the
 * palette's colours; a click on a node selects it in the timeline; the
 * graph follows the selection however it was made
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "app-test-utils.h"
#include "chrono-document-page.h"
#include "chrono-findings-panel.h"
#include "chrono-format.h"
#include "chrono-graph-view.h"
#include "chrono-palette.h"
#include "chrono-timeline.h"
#include "chrono-timeline-view.h"

#define REAL_TRACE "kineto__tbplugin_resnet50_nw0__worker0.1623143089861.pt.trace.json.gz"

static char *trace_path;

static gboolean
is_shown (gpointer data)
{
  return gtk_widget_get_mapped (data) && gtk_widget_get_height (data) > 100;
}

/* A kernel some runtime call launched, halfway through the trace. */
static ChronoSpanRef
find_launched_kernel (ChronoTrace *trace)
{
  guint n = chrono_trace_get_n_flows (trace);

  for (guint i = n / 2; i < n; i++)
    {
      const ChronoFlow *flow = chrono_trace_get_flow (trace, i);
      const ChronoTrack *track = chrono_trace_get_track (trace, flow->to.track);

      if (flow->type == CHRONO_FLOW_LAUNCH && track->kind[flow->to.index] == CHRONO_KIND_KERNEL)
        return flow->to;
    }
  g_assert_not_reached ();
}

static gboolean
same_span (ChronoNodeRef a,
           ChronoNodeRef b)
{
  return a.trace == b.trace && a.span.track == b.span.track && a.span.index == b.span.index;
}

static gboolean
is_inside (GtkWidget             *widget,
           const graphene_rect_t *area)
{
  return area->origin.x >= 0 && area->origin.y >= 0 &&
         area->origin.x + area->size.width <= gtk_widget_get_width (widget) &&
         area->origin.y + area->size.height <= gtk_widget_get_height (widget);
}

/* Nodes in view drawn in their kind's and name's colour: returns how
 * many were checked. */
static guint
check_node_colors (ChronoGraphView *graph,
                   ChronoAnalysis  *analysis)
{
  cairo_surface_t *surface = app_test_render (GTK_WIDGET (graph));
  guint checked = 0;

  for (guint i = 0; i < chrono_graph_view_get_n_nodes (graph); i++)
    {
      const ChronoGraphNode *node = chrono_graph_view_get_node (graph, i);
      ChronoTrace *trace = chrono_analysis_get_trace (analysis, node->ref.trace);
      const ChronoTrack *track = chrono_trace_get_track (trace, node->ref.span.track);
      graphene_rect_t area;
      GdkRGBA expected;
      int r, g, b;

      chrono_graph_view_get_node_area (graph, i, &area);
      if (!is_inside (GTK_WIDGET (graph), &area))
        continue;
      chrono_palette_span_color (track->kind[node->ref.span.index],
                                 chrono_trace_get_string (trace, chrono_track_get_name (track, node->ref.span.index)),
                                 chrono_graph_view_get_dark (graph), &expected);
      /* Left of the text, clear of the outline. */
      app_test_get_pixel (surface, (int) (area.origin.x + 5), (int) (area.origin.y + area.size.height / 2), &r, &g, &b);
      g_assert_cmpint (ABS (r - (int) (expected.red * 255 + 0.5)), <=, 2);
      g_assert_cmpint (ABS (g - (int) (expected.green * 255 + 0.5)), <=, 2);
      g_assert_cmpint (ABS (b - (int) (expected.blue * 255 + 0.5)), <=, 2);
      checked++;
    }
  cairo_surface_destroy (surface);
  return checked;
}

/* The box around the pixels that are not the background: the part of
 * the view the graph fills. */
static void
get_drawn_extent (GtkWidget       *widget,
                  graphene_rect_t *extent)
{
  cairo_surface_t *surface = app_test_render (widget);
  int width = cairo_image_surface_get_width (surface), height = cairo_image_surface_get_height (surface);
  int x0 = width, y0 = height, x1 = -1, y1 = -1;
  int br, bg, bb;

  /* A corner is background: the pad around the drawing. */
  app_test_get_pixel (surface, 1, 1, &br, &bg, &bb);
  for (int y = 0; y < height; y++)
    for (int x = 0; x < width; x++)
      {
        int r, g, b;

        app_test_get_pixel (surface, x, y, &r, &g, &b);
        if (ABS (r - br) + ABS (g - bg) + ABS (b - bb) > 24)
          {
            x0 = MIN (x0, x);
            y0 = MIN (y0, y);
            x1 = MAX (x1, x);
            y1 = MAX (y1, y);
          }
      }
  cairo_surface_destroy (surface);
  g_assert_cmpint (x1, >=, 0);
  graphene_rect_init (extent, x0, y0, x1 - x0 + 1, y1 - y0 + 1);
}

/* The graph as it opens: the whole of it in view when it can be read
 * so, else the width filled from its start with a hint for the rest; in
 * neither case a pane half empty. Returns how many nodes are in view. */
static guint
check_fitted (ChronoGraphView *graph,
              ChronoAnalysis  *analysis)
{
  GtkWidget *widget = GTK_WIDGET (graph);
  guint n_nodes = chrono_graph_view_get_n_nodes (graph), inside = 0;
  double width = gtk_widget_get_width (widget), height = gtk_widget_get_height (widget);
  graphene_rect_t extent, area;
  g_autofree char *title = NULL;

  g_object_get (graph, "title", &title, NULL);
  g_test_message ("%s: %u spans in a %.0f by %.0f pane, %u rows, scale %.2f; hint: %s",
                  title, n_nodes, width, height,
                  chrono_graph_view_get_n_bands (graph), chrono_graph_view_get_scale (graph),
                  chrono_graph_view_get_hint (graph));
  for (guint i = 0; i < n_nodes; i++)
    {
      chrono_graph_view_get_node_area (graph, i, &area);
      inside += is_inside (widget, &area);
    }
  /* The start of the path in view. */
  chrono_graph_view_get_node_area (graph, 0, &area);
  g_assert_true (is_inside (widget, &area));
  get_drawn_extent (widget, &extent);
  g_test_message ("drawn: %.0f,%.0f %.0f by %.0f; %u of %u nodes in view", extent.origin.x, extent.origin.y,
                  extent.size.width, extent.size.height, inside, n_nodes);

  if (chrono_graph_view_get_hint (graph) == NULL)
    {
      /* The whole graph in view, as large as the pane allows: it spans
       * the pane one way, unless it is shown at full size. */
      g_assert_cmpuint (inside, ==, n_nodes);
      if (chrono_graph_view_get_scale (graph) < 1.0)
        g_assert_true (extent.size.width >= 0.85 * width || extent.size.height >= 0.85 * height);
    }
  else
    {
      /* Too big to read whole: readable, the width filled and the pane
       * full down to its bottom. */
      g_assert_cmpfloat (chrono_graph_view_get_scale (graph), >=, 0.6);
      g_assert_cmpuint (chrono_graph_view_get_n_bands (graph), >, 1);
      g_assert_cmpuint (inside, >=, 4);
      g_assert_cmpfloat (extent.size.width, >=, 0.85 * width);
      g_assert_cmpfloat (extent.origin.y + extent.size.height, >=, 0.85 * height);
      g_assert_nonnull (strstr (chrono_graph_view_get_hint (graph), "0 fits again"));
    }
  /* Drawn: the nodes in view in their colours. */
  g_assert_cmpuint (check_node_colors (graph, analysis), ==, inside);
  return inside;
}

static void
test_graph (void)
{
  ChronoWindow *window = app_test_get_window ();
  g_autoptr(GFile) file = g_file_new_for_path (trace_path);
  g_autoptr(ChronoSubgraph) expected = NULL;
  ChronoDocumentPage *page;
  ChronoFindingsPanel *panel;
  ChronoTimeline *timeline;
  ChronoGraphView *graph;
  ChronoAnalysis *analysis;
  ChronoSpanRef kernel, selected;
  ChronoNodeRef centre, clicked_ref;
  GtkGesture *click = NULL, *drag = NULL;
  GListModel *controllers;
  graphene_rect_t area, zoomed, before;
  guint clicked = G_MAXUINT;

  page = chrono_window_open_file (window, file);
  g_assert_true (app_test_wait_for_state (page, CHRONO_DOCUMENT_STATE_LOADED, 20000));
  panel = CHRONO_FINDINGS_PANEL (app_test_find_widget (GTK_WIDGET (page), CHRONO_TYPE_FINDINGS_PANEL));
  timeline = CHRONO_TIMELINE (app_test_find_widget (GTK_WIDGET (page), CHRONO_TYPE_TIMELINE));
  graph = CHRONO_GRAPH_VIEW (app_test_find_widget (GTK_WIDGET (page), CHRONO_TYPE_GRAPH_VIEW));
  g_assert_nonnull (graph);
  g_assert_true (app_test_wait_for_analysis (panel, 30000));
  analysis = chrono_findings_panel_get_analysis (panel);
  g_assert_true (chrono_graph_view_get_analysis (graph) == analysis);
  /* Hidden until asked for. */
  g_assert_false (gtk_widget_get_mapped (GTK_WIDGET (graph)));
  g_assert_cmpuint (chrono_graph_view_get_n_nodes (graph), ==, 0);

  /* A kernel selected in the timeline, then the graph shown. */
  kernel = find_launched_kernel (chrono_document_page_get_trace (page));
  chrono_timeline_select (timeline, &kernel);
  g_signal_emit_by_name (timeline, "span-activated", kernel.track, kernel.index);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (timeline), "document.show-graph", NULL));
  g_assert_true (chrono_document_page_get_show_graph (page));
  g_assert_true (app_test_spin_until (is_shown, graph, 5000));
  g_assert_true (app_test_wait_for_paint (GTK_WIDGET (graph), 5000));

  centre = (ChronoNodeRef) { 0, kernel };
  expected = chrono_analysis_dup_neighbourhood (analysis, centre, chrono_graph_view_get_hops (graph), 500);
  g_assert_cmpuint (expected->nodes->len, >, 3);
  g_assert_cmpuint (chrono_graph_view_get_n_nodes (graph), ==, expected->nodes->len);
  for (guint i = 0; i < expected->nodes->len; i++)
    g_assert_true (same_span (chrono_graph_view_get_node (graph, i)->ref,
                              g_array_index (expected->nodes, ChronoGraphNode, i).ref));
  /* The kernel in view, its neighbours around it, fitted. */
  chrono_graph_view_get_node_area (graph, 0, &area);
  g_assert_true (is_inside (GTK_WIDGET (graph), &area));
  g_assert_cmpuint (check_fitted (graph, analysis), >=, 3);
  app_test_screenshot (GTK_WIDGET (graph), "graph-neighbourhood.png");

  /* Zooming in makes the nodes bigger. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (graph), "graph.zoom-in", NULL));
  chrono_graph_view_get_node_area (graph, 0, &zoomed);
  g_assert_cmpfloat (zoomed.size.width, >, area.size.width * 1.1);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (graph), "graph.zoom-out", NULL));

  /* A click on another node in view selects its span in the timeline, and
   * the graph follows it. */
  for (guint i = 1; i < chrono_graph_view_get_n_nodes (graph) && clicked == G_MAXUINT; i++)
    {
      const ChronoGraphNode *node = chrono_graph_view_get_node (graph, i);

      chrono_graph_view_get_node_area (graph, i, &area);
      if (is_inside (GTK_WIDGET (graph), &area) && node->ref.span.track != kernel.track)
        clicked = i;
    }
  g_assert_cmpuint (clicked, !=, G_MAXUINT);
  clicked_ref = chrono_graph_view_get_node (graph, clicked)->ref;
  controllers = gtk_widget_observe_controllers (GTK_WIDGET (graph));
  for (guint i = 0; i < g_list_model_get_n_items (controllers) && click == NULL; i++)
    {
      g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);

      if (GTK_IS_GESTURE_CLICK (controller))
        click = GTK_GESTURE (controller);
    }
  for (guint i = 0; i < g_list_model_get_n_items (controllers) && drag == NULL; i++)
    {
      g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);

      if (GTK_IS_GESTURE_DRAG (controller))
        drag = GTK_GESTURE (controller);
    }
  g_object_unref (controllers);
  g_assert_nonnull (click);
  g_assert_nonnull (drag);

  /* A drag pans, and its release on a node selects nothing. */
  chrono_graph_view_get_node_area (graph, 0, &before);
  g_signal_emit_by_name (drag, "drag-begin", area.origin.x + 2, area.origin.y + 2);
  g_signal_emit_by_name (drag, "drag-update", -30.0, 10.0);
  chrono_graph_view_get_node_area (graph, 0, &zoomed);
  g_assert_cmpfloat_with_epsilon (zoomed.origin.x, before.origin.x - 30, 1e-3);
  g_assert_cmpfloat_with_epsilon (zoomed.origin.y, before.origin.y + 10, 1e-3);
  g_signal_emit_by_name (click, "released", 1, area.origin.x - 28, area.origin.y + 12);
  g_assert_true (chrono_timeline_get_selection (timeline, &selected));
  g_assert_cmpuint (selected.index, ==, kernel.index);
  g_signal_emit_by_name (drag, "drag-update", 0.0, 0.0);
  g_signal_emit_by_name (drag, "drag-begin", 0.0, 0.0);
  chrono_graph_view_get_node_area (graph, clicked, &area);
  g_signal_emit_by_name (click, "released", 1, area.origin.x + area.size.width / 2,
                         area.origin.y + area.size.height / 2);
  g_assert_true (chrono_timeline_get_selection (timeline, &selected));
  g_assert_cmpuint (selected.track, ==, clicked_ref.span.track);
  g_assert_cmpuint (selected.index, ==, clicked_ref.span.index);
  g_assert_true (same_span (chrono_graph_view_get_node (graph, 0)->ref, clicked_ref));

  /* One hop around the span: a small graph, shown whole. */
  chrono_graph_view_set_hops (graph, 1);
  app_test_spin_for (50);
  g_assert_cmpuint (chrono_graph_view_get_n_nodes (graph), <=, 16);
  check_fitted (graph, analysis);
  g_assert_null (chrono_graph_view_get_hint (graph));
  chrono_graph_view_set_hops (graph, 3);

  /* A step's critical path as a graph: its spans, in time order. */
  chrono_graph_view_show_path (graph, 0);
  g_assert_cmpuint (chrono_graph_view_get_n_nodes (graph), >, 1);
  for (guint i = 1; i < chrono_graph_view_get_n_nodes (graph); i++)
    {
      g_assert_true (chrono_graph_view_get_node (graph, i)->on_critical_path);
      g_assert_cmpint (chrono_graph_view_get_node (graph, i - 1)->start_ns, <=,
                       chrono_graph_view_get_node (graph, i)->end_ns);
    }

  app_test_close_all_tabs (window);
}

/* The longest critical path of the trace, asked for from the findings as
 * a person does, opens fitted to the pane: the whole of it in view when
 * it can be read so, else the width filled from its start, with a hint
 * for the rest; in neither case a pane half empty. Fit brings it back. */
static void
test_path_fitted (void)
{
  ChronoWindow *window = app_test_get_window ();
  g_autoptr(GFile) file = g_file_new_for_path (trace_path);
  ChronoDocumentPage *page;
  ChronoFindingsPanel *panel;
  ChronoTimeline *timeline;
  ChronoGraphView *graph;
  ChronoAnalysis *analysis;
  GtkWidget *widget;
  graphene_rect_t area, first;
  guint longest = 0, shortest = G_MAXUINT;

  page = chrono_window_open_file (window, file);
  g_assert_true (app_test_wait_for_state (page, CHRONO_DOCUMENT_STATE_LOADED, 20000));
  panel = CHRONO_FINDINGS_PANEL (app_test_find_widget (GTK_WIDGET (page), CHRONO_TYPE_FINDINGS_PANEL));
  timeline = CHRONO_TIMELINE (app_test_find_widget (GTK_WIDGET (page), CHRONO_TYPE_TIMELINE));
  graph = CHRONO_GRAPH_VIEW (app_test_find_widget (GTK_WIDGET (page), CHRONO_TYPE_GRAPH_VIEW));
  widget = GTK_WIDGET (graph);
  g_assert_true (app_test_wait_for_analysis (panel, 30000));
  analysis = chrono_findings_panel_get_analysis (panel);
  g_assert_cmpuint (chrono_analysis_get_n_paths (analysis), >, 0);
  for (guint i = 0; i < chrono_analysis_get_n_paths (analysis); i++)
    {
      guint n = chrono_analysis_get_path (analysis, i)->n_segments;

      if (n > chrono_analysis_get_path (analysis, longest)->n_segments)
        longest = i;
      if (n >= 6 && (shortest == G_MAXUINT || n < chrono_analysis_get_path (analysis, shortest)->n_segments))
        shortest = i;
    }

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (timeline), "document.show-graph", NULL));
  g_signal_emit_by_name (panel, "path-graph-requested", longest);
  g_assert_true (app_test_spin_until (is_shown, graph, 5000));
  g_assert_true (app_test_wait_for_paint (widget, 5000));
  app_test_spin_for (50);

  check_fitted (graph, analysis);
  /* Long enough that one row at a readable size would not fit: wrapped. */
  g_assert_cmpuint (chrono_graph_view_get_n_nodes (graph), >, 20);
  g_assert_cmpuint (chrono_graph_view_get_n_bands (graph), >, 1);
  chrono_graph_view_get_node_area (graph, 0, &first);

  /* Panned away, then fitted again with the key. */
  gtk_widget_grab_focus (widget);
  for (guint i = 0; i < 6; i++)
    g_assert_true (gtk_widget_activate_action (widget, "graph.zoom-in", NULL));
  chrono_graph_view_get_node_area (graph, 0, &area);
  g_assert_cmpfloat (area.size.width, >, first.size.width * 1.5);
  g_assert_true (app_test_press_key (widget, GDK_KEY_0, 0));
  chrono_graph_view_get_node_area (graph, 0, &area);
  g_assert_cmpfloat_with_epsilon (area.origin.x, first.origin.x, 1e-3);
  g_assert_cmpfloat_with_epsilon (area.origin.y, first.origin.y, 1e-3);
  g_assert_cmpfloat_with_epsilon (area.size.width, first.size.width, 1e-3);

  /* A shorter path, fitted the same way. */
  if (shortest != G_MAXUINT && shortest != longest)
    {
      g_signal_emit_by_name (panel, "path-graph-requested", shortest);
      app_test_spin_for (50);
      check_fitted (graph, analysis);
    }

  /* For people to look at: the longest path in a window of a usual size,
   * fitted again to its larger pane. */
  if (g_getenv ("CHRONO_SCREENSHOT_DIR") != NULL)
    {
      g_signal_emit_by_name (panel, "path-graph-requested", longest);
      gtk_window_set_default_size (GTK_WINDOW (window), 1400, 900);
      app_test_spin_for (500);
      check_fitted (graph, analysis);
      app_test_screenshot (GTK_WIDGET (window), "graph-path.png");
    }

  app_test_close_all_tabs (window);
}

static gboolean
search_done (gpointer data)
{
  ChronoSearch *search = chrono_timeline_view_get_search (data);

  return search != NULL && chrono_search_get_n_matches (search) > 1;
}

static void
check_centre (ChronoGraphView *graph,
              ChronoSpanRef    span)
{
  g_assert_cmpuint (chrono_graph_view_get_n_nodes (graph), >, 0);
  g_assert_true (same_span (chrono_graph_view_get_node (graph, 0)->ref, (ChronoNodeRef) { 0, span }));
}

/* The graph's title names its centre as every list does: a kernel by its
 * short name, the whole one in the node's tooltip. */
static void
check_title_names (ChronoGraphView *graph,
                   ChronoTrace     *trace,
                   ChronoSpanRef    span)
{
  const ChronoTrack *track = chrono_trace_get_track (trace, span.track);
  const char *name = chrono_trace_get_string (trace, chrono_track_get_name (track, span.index));
  g_autofree char *short_name = chrono_format_short_name (name, CHRONO_SHORT_NAME_WIDTH);
  g_autofree char *title = NULL;

  g_object_get (graph, "title", &title, NULL);
  g_assert_nonnull (strstr (title, short_name));
  if (strcmp (short_name, name) != 0)
    g_assert_null (strstr (title, name));
}

/* A span found by the search, then the graph opened: the graph is around
 * that span at once, and follows the next match, a click and a call. */
static void
test_follows_selection (void)
{
  ChronoWindow *window = app_test_get_window ();
  ChronoDocumentPage *page = app_test_open_trace (window, trace_path);
  ChronoTimelineView *view = chrono_document_page_get_timeline_view (page);
  ChronoTimeline *timeline = chrono_timeline_view_get_timeline (view);
  ChronoFindingsPanel *panel =
    CHRONO_FINDINGS_PANEL (app_test_find_widget (GTK_WIDGET (page), CHRONO_TYPE_FINDINGS_PANEL));
  ChronoGraphView *graph = CHRONO_GRAPH_VIEW (app_test_find_widget (GTK_WIDGET (page), CHRONO_TYPE_GRAPH_VIEW));
  GtkWidget *entry = app_test_find_widget (GTK_WIDGET (chrono_timeline_view_get_search_bar (view)),
                                           GTK_TYPE_SEARCH_ENTRY);
  ChronoSpanRef found, next, kernel;

  g_assert_true (app_test_wait_for_analysis (panel, 30000));
  g_assert_false (chrono_timeline_get_selection (timeline, NULL));

  gtk_editable_set_text (GTK_EDITABLE (entry), "aten::conv2d");
  g_assert_true (app_test_spin_until (search_done, view, 10000));
  g_assert_true (chrono_timeline_get_selection (timeline, &found));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (timeline), "document.show-graph", NULL));
  g_assert_true (app_test_spin_until (is_shown, graph, 5000));
  g_assert_true (app_test_wait_for_paint (GTK_WIDGET (graph), 5000));
  check_centre (graph, found);
  /* Drawn as a graph: not the plain canvas that asks for a selection. */
  g_assert_cmpuint (check_node_colors (graph, chrono_findings_panel_get_analysis (panel)), >, 0);

  /* The next match, with the graph open. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "view.find-next", NULL));
  g_assert_true (chrono_timeline_get_selection (timeline, &next));
  g_assert_true (next.track != found.track || next.index != found.index);
  check_centre (graph, next);

  /* A kernel selected by a call, as the findings and the notes do. */
  kernel = find_launched_kernel (chrono_document_page_get_trace (page));
  chrono_timeline_select (timeline, &kernel);
  check_centre (graph, kernel);
  check_title_names (graph, chrono_document_page_get_trace (page), kernel);
  /* Nothing selected: the last graph stays. */
  chrono_timeline_select (timeline, NULL);
  check_centre (graph, kernel);

  app_test_close_all_tabs (window);
}

int
main (int   argc,
      char *argv[])
{
  if (!app_test_init (&argc, &argv))
    return 77;

  trace_path = app_test_real_trace (REAL_TRACE);
  if (trace_path == NULL)
    return 77;
  g_test_add_func ("/app/graph/neighbourhood-click-path", test_graph);
  g_test_add_func ("/app/graph/path-fitted", test_path_fitted);
  g_test_add_func ("/app/graph/follows-selection", test_follows_selection);
  return g_test_run ();
}
