/* test-app-groups.c: collapsing the process groups of a real PyTorch
 * profiler trace (CPU and GPU processes): rows, the busy strip, arrows
 * into a collapsed group, search opening it, the sidecar keeping it; and
 * two ranks' traces opened as one document
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include <adwaita.h>
#include <glib/gstdio.h>

#include "app-test-utils.h"
#include "chrono-document-page.h"
#include "chrono-flow-index.h"
#include "chrono-loader.h"
#include "chrono-palette.h"
#include "chrono-sidecar.h"
#include "chrono-timeline.h"

#define WIDTH   1200
#define HEIGHT  800
#define KINETO  "kineto__tbplugin_resnet50_nw0__worker0.1623143089861.pt.trace.json.gz"
/* Antialiased lines blend into what they cross. */
#define TOLERANCE 70
/* The header row of a process, as the timeline draws it. */
#define GROUP_HEIGHT 24.0

static char *kineto_path;

typedef struct {
  GtkWidget      *window;
  ChronoTimeline *timeline;
  ChronoTrace    *trace;
  guint           gpu;      /* a GPU process with spans */
} Fixture;

static guint
find_gpu_process (ChronoTrace *trace)
{
  for (guint t = 0; t < chrono_trace_get_n_tracks (trace); t++)
    {
      const ChronoTrack *track = chrono_trace_get_track (trace, t);

      if (track->n_spans > 0 && chrono_trace_get_process (trace, track->process)->is_device)
        return track->process;
    }
  g_assert_not_reached ();
}

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  if (kineto_path == NULL)
    return;
  fixture->trace = chrono_trace_load_file (kineto_path, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (chrono_trace_get_n_processes (fixture->trace), >=, 2);
  fixture->gpu = find_gpu_process (fixture->trace);
  fixture->timeline = CHRONO_TIMELINE (chrono_timeline_new (fixture->trace));
  fixture->window = app_test_present (GTK_WIDGET (fixture->timeline), WIDTH, HEIGHT);
  g_assert_true (app_test_spin_until ((AppTestCondition) chrono_timeline_get_flows_ready,
                                      fixture->timeline, 10000));
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  if (fixture->window != NULL)
    gtk_window_destroy (GTK_WINDOW (fixture->window));
  g_clear_object (&fixture->trace);
}

static gboolean
skip_without_trace (void)
{
  if (kineto_path != NULL)
    return FALSE;
  g_test_skip ("no " KINETO " in the shared traces");
  return TRUE;
}

/* The top of every track's area, or -1 when it has none. */
static double *
get_track_tops (Fixture *fixture)
{
  guint n = chrono_trace_get_n_tracks (fixture->trace);
  double *tops = g_new (double, n);

  for (guint t = 0; t < n; t++)
    {
      graphene_rect_t area;

      tops[t] = chrono_timeline_get_track_area (fixture->timeline, t, &area) ? area.origin.y : -1;
    }
  return tops;
}

/* Marks in COVERED the pixel columns near a span of the GPU process
 * (1) and well inside one (2); returns how many are neither and how many
 * are inside. */
static void
cover_gpu_spans (Fixture *fixture,
                 guint8  *covered,
                 guint   *n_idle,
                 guint   *n_busy)
{
  ChronoViewport *viewport = chrono_timeline_get_viewport (fixture->timeline);
  double width = chrono_viewport_get_width_px (viewport);
  gint64 view_start = chrono_viewport_get_start_ns (viewport);
  gint64 view_end = chrono_viewport_get_end_ns (viewport);

  memset (covered, 0, (gsize) width + 2);
  for (guint t = 0; t < chrono_trace_get_n_tracks (fixture->trace); t++)
    {
      const ChronoTrack *track = chrono_trace_get_track (fixture->trace, t);

      if (track->process != fixture->gpu)
        continue;
      for (guint32 i = 0; i < track->n_spans; i++)
        {
          double x0, x1;
          int c0, c1;

          if (track->start[i] > view_end || chrono_track_get_end (track, i) < view_start)
            continue;
          x0 = chrono_viewport_time_to_x (viewport, track->start[i]);
          x1 = chrono_viewport_time_to_x (viewport, chrono_track_get_end (track, i));
          c0 = (int) CLAMP (floor (x0) - 2, 0, width + 1);
          c1 = (int) CLAMP (ceil (x1) + 2, 0, width + 1);
          for (int c = c0; c < c1; c++)
            covered[c] = MAX (covered[c], (c >= floor (x0) + 2 && c <= ceil (x1) - 3) ? 2 : 1);
        }
    }
  *n_idle = *n_busy = 0;
  for (int c = 0; c < (int) width; c++)
    {
      *n_idle += covered[c] == 0;
      *n_busy += covered[c] == 2;
    }
}

static gboolean
zoom_to_busy_and_idle (Fixture *fixture,
                       guint8  *covered)
{
  ChronoViewport *viewport = chrono_timeline_get_viewport (fixture->timeline);

  for (guint t = 0; t < chrono_trace_get_n_tracks (fixture->trace); t++)
    {
      const ChronoTrack *track = chrono_trace_get_track (fixture->trace, t);

      if (track->process != fixture->gpu)
        continue;
      /* Some fifty spans of the track, spread over it. */
      for (guint32 i = 0; i < track->n_spans; i += MAX (track->n_spans / 50, 1))
        {
          gint64 dur = MAX (chrono_track_get_dur (track, i), 1000);
          guint n_idle, n_busy;

          chrono_viewport_zoom_to_range (viewport, track->start[i] - 20 * dur,
                                         track->start[i] + 21 * dur);
          cover_gpu_spans (fixture, covered, &n_idle, &n_busy);
          if (n_idle > 50 && n_busy > 50)
            return TRUE;
        }
    }
  return FALSE;
}

static void
test_collapse (Fixture       *fixture,
               gconstpointer  data)
{
  ChronoTrackLayout *layout;
  ChronoViewport *viewport;
  GtkWidget *widget = GTK_WIDGET (fixture->timeline);
  g_autofree double *before = NULL;
  g_autofree double *collapsed = NULL;
  g_autofree double *after = NULL;
  g_autofree guint8 *covered = NULL;
  const GdkRGBA group = { 0.91, 0.91, 0.92, 1.0 };
  cairo_surface_t *surface;
  graphene_rect_t header, expanded_header;
  double folded = 0, width;
  guint n_tracks, n_busy = 0, n_busy_drawn = 0, n_idle = 0, n_idle_drawn = 0;
  int mid;

  if (skip_without_trace ())
    return;
  layout = chrono_timeline_get_track_layout (fixture->timeline);
  viewport = chrono_timeline_get_viewport (fixture->timeline);
  n_tracks = chrono_trace_get_n_tracks (fixture->trace);
  width = chrono_viewport_get_width_px (viewport);
  before = get_track_tops (fixture);
  g_assert_true (chrono_timeline_get_process_area (fixture->timeline, fixture->gpu, &expanded_header));
  g_assert_cmpfloat (expanded_header.size.height, ==, GROUP_HEIGHT);

  /* Nothing on the header row but its name before it collapses. */
  surface = app_test_render (widget);
  mid = (int) (expanded_header.origin.y + GROUP_HEIGHT / 2);
  g_assert_cmpuint (app_test_count_color (surface, CHRONO_TIMELINE_HEADER_WIDTH + 1, mid, WIDTH - 1, mid, &group, TOLERANCE),
                    >, 0.9 * (width - 2));
  cairo_surface_destroy (surface);

  chrono_track_layout_set_collapsed (layout, fixture->gpu, TRUE);
  collapsed = get_track_tops (fixture);
  g_assert_true (chrono_timeline_get_process_area (fixture->timeline, fixture->gpu, &header));
  g_assert_cmpfloat (header.origin.y, ==, expanded_header.origin.y);
  g_assert_cmpfloat (header.size.height, ==, GROUP_HEIGHT);

  /* The GPU's tracks fold into its header; tracks above stay, tracks
   * below move up by what folded. */
  for (guint t = 0; t < n_tracks; t++)
    if (chrono_trace_get_track (fixture->trace, t)->process == fixture->gpu && before[t] >= 0)
      {
        graphene_rect_t area = GRAPHENE_RECT_INIT (0, 0, 0, 0);

        g_assert_cmpfloat (collapsed[t], ==, -1);
        /* Heights from the expanded layout, by the next track's top. */
        chrono_track_layout_set_collapsed (layout, fixture->gpu, FALSE);
        g_assert_true (chrono_timeline_get_track_area (fixture->timeline, t, &area));
        folded += area.size.height;
        chrono_track_layout_set_collapsed (layout, fixture->gpu, TRUE);
      }
  g_assert_cmpfloat (folded, >, 0);
  for (guint t = 0; t < n_tracks; t++)
    {
      if (chrono_trace_get_track (fixture->trace, t)->process == fixture->gpu || before[t] < 0)
        continue;
      if (before[t] < header.origin.y)
        g_assert_cmpfloat (collapsed[t], ==, before[t]);
      else
        g_assert_cmpfloat (fabs (collapsed[t] - (before[t] - folded)), <, 0.01);
    }

  /* The strip: drawn over the columns where a GPU span lies, not where
   * none does (up to the step lines that cross it), zoomed in around a
   * span until both show. */
  covered = g_new0 (guint8, (gsize) width + 2);
  g_assert_true (zoom_to_busy_and_idle (fixture, covered));
  surface = app_test_render (widget);
  mid = (int) (header.origin.y + GROUP_HEIGHT / 2);
  for (int c = 0; c < (int) width; c++)
    {
      gboolean drawn = !app_test_near_color (surface, CHRONO_TIMELINE_HEADER_WIDTH + c, mid, &group, 6);

      if (covered[c] == 2)
        {
          n_busy++;
          n_busy_drawn += drawn;
        }
      else if (covered[c] == 0)
        {
          n_idle++;
          n_idle_drawn += drawn;
        }
    }
  cairo_surface_destroy (surface);
  g_test_message ("busy columns %u (%u drawn), idle columns %u (%u drawn)",
                  n_busy, n_busy_drawn, n_idle, n_idle_drawn);
  g_assert_cmpuint (n_busy, >, 20);
  g_assert_cmpuint (n_idle, >, 20);
  g_assert_cmpuint (n_busy_drawn, ==, n_busy);
  g_assert_cmpuint (n_idle_drawn, <, n_idle / 10);

  /* Expanded again, every track where it was. */
  chrono_track_layout_set_collapsed (layout, fixture->gpu, FALSE);
  after = get_track_tops (fixture);
  g_assert_cmpmem (after, n_tracks * sizeof (double), before, n_tracks * sizeof (double));
}

/* The keyboard: Enter on the current track's group, and all groups. */
static void
test_actions (Fixture       *fixture,
              gconstpointer  data)
{
  ChronoTrackLayout *layout;
  GtkWidget *widget = GTK_WIDGET (fixture->timeline);
  guint n_processes, track = G_MAXUINT;
  graphene_rect_t area;
  GtkGesture *click;

  if (skip_without_trace ())
    return;
  layout = chrono_timeline_get_track_layout (fixture->timeline);
  n_processes = chrono_trace_get_n_processes (fixture->trace);
  for (guint t = 0; t < chrono_trace_get_n_tracks (fixture->trace) && track == G_MAXUINT; t++)
    if (chrono_trace_get_track (fixture->trace, t)->process == fixture->gpu &&
        chrono_trace_get_track (fixture->trace, t)->n_spans > 0)
      track = t;
  chrono_timeline_select (fixture->timeline, &(ChronoSpanRef) { track, 0 });
  g_assert_cmpuint (chrono_timeline_get_current_track (fixture->timeline), ==, track);

  g_assert_true (gtk_widget_activate_action (widget, "timeline.toggle-group", NULL));
  g_assert_true (chrono_track_layout_is_collapsed (layout, fixture->gpu));
  g_assert_false (chrono_timeline_get_track_area (fixture->timeline, track, &area));
  /* Its track stays current, so Enter again opens the group. */
  g_assert_cmpuint (chrono_timeline_get_current_track (fixture->timeline), ==, track);
  g_assert_true (gtk_widget_activate_action (widget, "timeline.toggle-group", NULL));
  g_assert_false (chrono_track_layout_is_collapsed (layout, fixture->gpu));
  g_assert_true (chrono_timeline_get_track_area (fixture->timeline, track, &area));

  /* A click on the process's name folds it, another opens it. */
  g_assert_true (chrono_timeline_get_process_area (fixture->timeline, fixture->gpu, &area));
  click = GTK_GESTURE (app_test_find_controller (widget, GTK_TYPE_GESTURE_CLICK));
  g_signal_emit_by_name (click, "pressed", 1, 40.0, area.origin.y + area.size.height / 2);
  g_assert_true (chrono_track_layout_is_collapsed (layout, fixture->gpu));
  g_signal_emit_by_name (click, "pressed", 1, 40.0, area.origin.y + area.size.height / 2);
  g_assert_false (chrono_track_layout_is_collapsed (layout, fixture->gpu));

  g_assert_true (gtk_widget_activate_action (widget, "timeline.collapse-all", NULL));
  g_assert_cmpuint (chrono_track_layout_get_n_collapsed (layout), ==, n_processes);
  for (guint t = 0; t < chrono_trace_get_n_tracks (fixture->trace); t++)
    g_assert_false (chrono_timeline_get_track_area (fixture->timeline, t, &area));
  /* One header row per process with tracks, one under the other. */
  for (guint p = 0; p + 1 < n_processes; p++)
    {
      graphene_rect_t next;

      if (chrono_timeline_get_process_area (fixture->timeline, p, &area) &&
          chrono_timeline_get_process_area (fixture->timeline, p + 1, &next))
        g_assert_cmpfloat (fabs (next.origin.y - area.origin.y), ==, GROUP_HEIGHT);
    }
  g_assert_true (gtk_widget_activate_action (widget, "timeline.expand-all", NULL));
  g_assert_cmpuint (chrono_track_layout_get_n_collapsed (layout), ==, 0);
  g_assert_true (chrono_timeline_get_track_area (fixture->timeline, track, &area));
}

/* A launch arrow from a CPU runtime call into the collapsed GPU group
 * ends on the group's header row; revealing its kernel, as search does,
 * opens the group. */
static void
test_flow_into_collapsed (Fixture       *fixture,
                          gconstpointer  data)
{
  g_autoptr(ChronoFlowIndex) index = NULL;
  ChronoTrackLayout *layout;
  ChronoViewport *viewport;
  GtkWidget *widget = GTK_WIDGET (fixture->timeline);
  cairo_surface_t *surface;
  graphene_rect_t from_area, header, area;
  const ChronoFlow *launch = NULL;
  GdkRGBA color;
  double x1 = 0, mid;
  guint n;

  if (skip_without_trace ())
    return;
  layout = chrono_timeline_get_track_layout (fixture->timeline);
  viewport = chrono_timeline_get_viewport (fixture->timeline);
  index = chrono_flow_index_new (fixture->trace);
  chrono_track_layout_set_collapsed (layout, fixture->gpu, TRUE);
  g_assert_true (chrono_timeline_get_process_area (fixture->timeline, fixture->gpu, &header));

  /* A launch whose kernel is at least 100 px later than the call. */
  n = chrono_trace_get_n_flows (fixture->trace);
  for (guint i = n / 2; i < n && launch == NULL; i++)
    {
      const ChronoFlow *flow = chrono_trace_get_flow (fixture->trace, i);
      gint64 from_ns, to_ns;

      if (flow->type != CHRONO_FLOW_LAUNCH ||
          chrono_trace_get_track (fixture->trace, flow->to.track)->process != fixture->gpu ||
          chrono_trace_get_track (fixture->trace, flow->from.track)->process == fixture->gpu)
        continue;
      chrono_flow_index_get_times (index, i, &from_ns, &to_ns);
      if (to_ns - from_ns < 20000)
        continue;
      chrono_viewport_zoom_to_range (viewport, from_ns - (to_ns - from_ns), to_ns + (to_ns - from_ns));
      if (!chrono_timeline_get_span_area (fixture->timeline, flow->from, &from_area) ||
          from_area.origin.y < CHRONO_TIMELINE_RULER_HEIGHT ||
          from_area.origin.y + from_area.size.height > HEIGHT ||
          fabs (from_area.origin.y - header.origin.y) < 60)
        continue;
      launch = flow;
      x1 = CHRONO_TIMELINE_HEADER_WIDTH + chrono_viewport_time_to_x (viewport, to_ns);
    }
  g_assert_nonnull (launch);
  /* Folded, the kernel has no place of its own. */
  g_assert_false (chrono_timeline_get_span_area (fixture->timeline, launch->to, &area));

  /* The call selected: its arrow's head is on the header's middle. */
  chrono_palette_flow_color (CHRONO_FLOW_LAUNCH, FALSE, &color);
  mid = header.origin.y + header.size.height / 2;
  surface = app_test_render (widget);
  g_assert_cmpuint (app_test_count_color (surface, x1 - 6, mid - 3, x1, mid + 3, &color, TOLERANCE), ==, 0);
  cairo_surface_destroy (surface);
  chrono_timeline_select (fixture->timeline, &launch->from);
  surface = app_test_render (widget);
  g_assert_cmpuint (app_test_count_color (surface, x1 - 6, mid - 3, x1, mid + 3, &color, TOLERANCE), >, 6);
  /* Nowhere else on the kernel's column, above or below the header. */
  g_assert_cmpuint (app_test_count_color (surface, x1 - 6, header.origin.y + header.size.height + 2,
                                 x1, HEIGHT - 1, &color, TOLERANCE), ==, 0);
  cairo_surface_destroy (surface);

  /* The kernel revealed, as search goes to it: its group opens, and the
   * arrow ends at the kernel's row again. */
  chrono_timeline_select (fixture->timeline, &launch->to);
  chrono_timeline_reveal_span (fixture->timeline, launch->to);
  g_assert_false (chrono_track_layout_is_collapsed (layout, fixture->gpu));
  g_assert_true (chrono_timeline_get_span_area (fixture->timeline, launch->to, &area));
  g_assert_cmpfloat (area.origin.y, >=, CHRONO_TIMELINE_RULER_HEIGHT);
  g_assert_cmpfloat (area.origin.y + area.size.height, <=, HEIGHT);
  surface = app_test_render (widget);
  g_assert_cmpuint (app_test_count_color (surface, area.origin.x - 6, area.origin.y + area.size.height / 2 - 3,
                                 area.origin.x, area.origin.y + area.size.height / 2 + 3, &color, TOLERANCE), >, 6);
  cairo_surface_destroy (surface);
}

static ChronoTimeline *
open_in_window (ChronoWindow *window)
{
  ChronoDocumentPage *page = app_test_open_trace (window, kineto_path);

  return chrono_timeline_view_get_timeline (chrono_document_page_get_timeline_view (page));
}

/* Collapsed groups come back when the trace opens again. */
static void
test_persistence (void)
{
  ChronoWindow *window = app_test_get_window ();
  g_autoptr(ChronoSidecar) sidecar = NULL;
  g_autoptr(GError) error = NULL;
  JsonNode *section;
  ChronoTimeline *timeline;
  ChronoTrackLayout *layout;
  graphene_rect_t area;
  guint gpu;

  if (skip_without_trace ())
    return;
  sidecar = chrono_sidecar_new (kineto_path, NULL);
  g_unlink (chrono_sidecar_get_path (sidecar));
  timeline = open_in_window (window);
  layout = chrono_timeline_get_track_layout (timeline);
  gpu = find_gpu_process (chrono_timeline_get_trace (timeline));
  g_assert_cmpuint (chrono_track_layout_get_n_collapsed (layout), ==, 0);
  chrono_track_layout_set_collapsed (layout, gpu, TRUE);

  g_assert_true (chrono_sidecar_load (sidecar, &error));
  g_assert_no_error (error);
  section = chrono_sidecar_get_section (sidecar, "tracks");
  g_assert_nonnull (section);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (json_node_get_object (section),
                                                                         "collapsed")), ==, 1);

  app_test_close_all_tabs (window);
  timeline = open_in_window (window);
  layout = chrono_timeline_get_track_layout (timeline);
  g_assert_true (chrono_track_layout_is_collapsed (layout, gpu));
  g_assert_cmpuint (chrono_track_layout_get_n_collapsed (layout), ==, 1);
  g_assert_true (chrono_timeline_get_process_area (timeline, gpu, &area));
  for (guint t = 0; t < chrono_trace_get_n_tracks (chrono_timeline_get_trace (timeline)); t++)
    if (chrono_trace_get_track (chrono_timeline_get_trace (timeline), t)->process == gpu)
      g_assert_false (chrono_timeline_get_track_area (timeline, t, &area));
  app_test_close_all_tabs (window);
  g_unlink (chrono_sidecar_get_path (sidecar));
}

#define RANK0 "hta__trace_filter__sampled_rank-0.json.gz"
#define RANK1 "hta__trace_filter__sampled_rank-1.json.gz"

/* Two ranks opened together: one tab, every track of both, one clock. */
static void
test_open_as_one (void)
{
  ChronoWindow *window = app_test_get_window ();
  AdwTabView *tab_view = chrono_window_get_tab_view (window);
  g_autofree char *rank0 = app_test_real_trace (RANK0);
  g_autofree char *rank1 = app_test_real_trace (RANK1);
  g_autoptr(GListStore) files = g_list_store_new (G_TYPE_FILE);
  g_autoptr(ChronoTrace) trace0 = NULL;
  g_autoptr(ChronoTrace) trace1 = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) file0 = NULL;
  g_autoptr(GFile) file1 = NULL;
  g_autofree char *title = NULL;
  ChronoDocumentPage *page;
  ChronoTimeline *timeline;
  ChronoTrace *trace;
  graphene_rect_t area;
  g_autofree gboolean *with_tracks = NULL;

  if (rank0 == NULL || rank1 == NULL)
    {
      g_test_skip ("no " RANK0 " or " RANK1 " in the shared traces");
      return;
    }
  trace0 = chrono_trace_load_file (rank0, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  trace1 = chrono_trace_load_file (rank1, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  file0 = g_file_new_for_path (rank0);
  file1 = g_file_new_for_path (rank1);
  g_list_store_append (files, file0);
  g_list_store_append (files, file1);

  app_test_close_all_tabs (window);
  page = chrono_window_open_files (window, G_LIST_MODEL (files), TRUE);
  g_assert_nonnull (page);
  g_assert_true (app_test_wait_for_state (page, CHRONO_DOCUMENT_STATE_LOADED, 60000));
  g_assert_cmpint (adw_tab_view_get_n_pages (tab_view), ==, 1);
  trace = chrono_document_page_get_trace (page);
  g_assert_cmpuint (chrono_trace_get_n_tracks (trace), ==,
                    chrono_trace_get_n_tracks (trace0) + chrono_trace_get_n_tracks (trace1));
  g_assert_cmpuint (chrono_trace_get_n_processes (trace), ==,
                    chrono_trace_get_n_processes (trace0) + chrono_trace_get_n_processes (trace1));
  title = chrono_document_page_dup_title (page);
  g_assert_cmpstr (title, ==, "2 traces");
  g_assert_cmpstr (adw_tab_page_get_title (adw_tab_view_get_selected_page (tab_view)), ==, "2 traces");
  /* The timeline has a header for every process with tracks, of both. */
  timeline = chrono_timeline_view_get_timeline (chrono_document_page_get_timeline_view (page));
  g_assert_true (chrono_timeline_get_trace (timeline) == trace);
  with_tracks = g_new0 (gboolean, chrono_trace_get_n_processes (trace));
  for (guint t = 0; t < chrono_trace_get_n_tracks (trace); t++)
    with_tracks[chrono_trace_get_track (trace, t)->process] = TRUE;
  for (guint p = 0; p < chrono_trace_get_n_processes (trace); p++)
    g_assert_cmpint (chrono_timeline_get_process_area (timeline, p, &area), ==, with_tracks[p]);

  /* Either file alone is not this tab: it opens in its own. */
  g_assert_true (chrono_window_open_file (window, file0) != page);
  g_assert_cmpint (adw_tab_view_get_n_pages (tab_view), ==, 2);
  /* Without as_one, one tab each, as before. */
  app_test_close_all_tabs (window);
  chrono_window_open_files (window, G_LIST_MODEL (files), FALSE);
  g_assert_cmpint (adw_tab_view_get_n_pages (tab_view), ==, 2);
  app_test_close_all_tabs (window);
}

int
main (int   argc,
      char *argv[])
{
  if (!app_test_init (&argc, &argv))
    return 77;
  kineto_path = app_test_real_trace (KINETO);

  g_test_add ("/app/groups/collapse", Fixture, NULL, fixture_set_up, test_collapse, fixture_tear_down);
  g_test_add ("/app/groups/actions", Fixture, NULL, fixture_set_up, test_actions, fixture_tear_down);
  g_test_add ("/app/groups/flow-into-collapsed", Fixture, NULL, fixture_set_up, test_flow_into_collapsed,
              fixture_tear_down);
  g_test_add_func ("/app/groups/persistence", test_persistence);
  g_test_add_func ("/app/groups/open-as-one", test_open_as_one);
  return g_test_run ();
}
