/* test-track-layout.c: pinning, hiding, moving tracks and collapsing
 * processes, and the layout through a sidecar section and back, on a real
 * trace
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gstdio.h>

#include "chrono-sidecar.h"
#include "chrono-track-layout.h"
#include "test-utils.h"

#define REAL_TRACE "param__resnet_kineto.json.gz"
/* A device's lanes under a host thread 16 levels deep. */
#define DEVICE_TRACE "hta__mtia_single_rank__mtia_rank_0.json.gz"

static void
count_cb (guint *n)
{
  (*n)++;
}

static guint
position (ChronoTrackLayout *layout,
          guint              track)
{
  guint n;
  const guint *order = chrono_track_layout_get_order (layout, &n);

  for (guint i = 0; i < n; i++)
    if (order[i] == track)
      return i;
  g_assert_not_reached ();
}

/* Two tracks of one process, next to each other: the first and second of
 * the first process that has two. Without one, both are G_MAXUINT: an
 * assertion may let the test go on, and an optimising compiler sees that. */
static gboolean
find_pair (ChronoTrackLayout *layout,
           guint             *first,
           guint             *second)
{
  ChronoTrace *trace = chrono_track_layout_get_trace (layout);
  guint n;
  const guint *order = chrono_track_layout_get_order (layout, &n);

  *first = *second = G_MAXUINT;
  for (guint i = 0; i + 1 < n; i++)
    if (chrono_trace_get_track (trace, order[i])->process ==
        chrono_trace_get_track (trace, order[i + 1])->process)
      {
        *first = order[i];
        *second = order[i + 1];
        return TRUE;
      }
  return FALSE;
}

static gboolean
is_device (ChronoTrace *trace,
           guint        track)
{
  return chrono_trace_get_process (trace, chrono_trace_get_track (trace, track)->process)->is_device;
}

/* The layout's order is TRACE_ORDER with the tracks of devices moved
 * before the others, each kind keeping its order. */
static void
assert_devices_first (ChronoTrackLayout *layout,
                      const guint       *trace_order,
                      guint              n_tracks)
{
  ChronoTrace *trace = chrono_track_layout_get_trace (layout);
  guint n;
  const guint *order = chrono_track_layout_get_order (layout, &n);
  guint n_devices = 0, i = 0;

  g_assert_cmpuint (n, ==, n_tracks);
  for (guint t = 0; t < n_tracks; t++)
    n_devices += is_device (trace, t);
  for (int device = 1; device >= 0; device--)
    for (guint j = 0; j < n_tracks; j++)
      if (is_device (trace, trace_order[j]) == device)
        {
          g_assert_cmpuint (order[i], ==, trace_order[j]);
          g_assert_cmpint (is_device (trace, order[i]), ==, i < n_devices);
          i++;
        }
  g_assert_cmpuint (i, ==, n_tracks);
}

static void
test_edit (void)
{
  g_autoptr(ChronoTrace) trace = test_traces_load (REAL_TRACE);
  g_autoptr(ChronoTrackLayout) layout = NULL;
  g_autofree guint *trace_order = NULL;
  guint n_tracks, n_changes = 0, a, b, n_pinned;
  const guint *pinned;

  if (trace == NULL)
    return;
  layout = chrono_track_layout_new (trace);
  g_signal_connect_swapped (layout, "changed", G_CALLBACK (count_cb), &n_changes);

  /* It starts from the trace's order, devices first. */
  trace_order = chrono_trace_dup_track_order (trace, &n_tracks);
  assert_devices_first (layout, trace_order, n_tracks);
  g_assert_true (find_pair (layout, &a, &b));

  /* Moving: within the process only. */
  g_assert_false (chrono_track_layout_can_move (layout, a, -1));
  g_assert_true (chrono_track_layout_can_move (layout, a, 1));
  g_assert_true (chrono_track_layout_move (layout, a, 1));
  g_assert_cmpuint (position (layout, b) + 1, ==, position (layout, a));
  g_assert_cmpuint (n_changes, ==, 1);
  g_assert_true (chrono_track_layout_move (layout, a, -1));
  g_assert_cmpuint (position (layout, a) + 1, ==, position (layout, b));

  /* Pinning lists tracks in the order pinned; unpinning takes them out. */
  chrono_track_layout_set_pinned (layout, b, TRUE);
  chrono_track_layout_set_pinned (layout, a, TRUE);
  chrono_track_layout_set_pinned (layout, a, TRUE);
  pinned = chrono_track_layout_get_pinned (layout, &n_pinned);
  g_assert_cmpuint (n_pinned, ==, 2);
  g_assert_cmpuint (pinned[0], ==, b);
  g_assert_cmpuint (pinned[1], ==, a);
  g_assert_cmpuint (n_changes, ==, 4);
  /* Pinned tracks move among themselves. */
  g_assert_true (chrono_track_layout_move (layout, a, -1));
  pinned = chrono_track_layout_get_pinned (layout, &n_pinned);
  g_assert_cmpuint (pinned[0], ==, a);
  chrono_track_layout_set_pinned (layout, a, FALSE);
  pinned = chrono_track_layout_get_pinned (layout, &n_pinned);
  g_assert_cmpuint (n_pinned, ==, 1);
  g_assert_cmpuint (pinned[0], ==, b);
  g_assert_true (chrono_track_layout_is_pinned (layout, b));

  /* Hiding, and showing all again. */
  chrono_track_layout_set_hidden (layout, a, TRUE);
  g_assert_true (chrono_track_layout_is_hidden (layout, a));
  g_assert_cmpuint (chrono_track_layout_get_n_hidden (layout), ==, 1);
  chrono_track_layout_show_all (layout);
  g_assert_false (chrono_track_layout_is_hidden (layout, a));
  g_assert_cmpuint (chrono_track_layout_get_n_hidden (layout), ==, 0);
}

static void
test_json (void)
{
  g_autoptr(ChronoTrace) trace = test_traces_load (REAL_TRACE);
  g_autoptr(ChronoTrackLayout) layout = NULL;
  g_autoptr(ChronoTrackLayout) loaded = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autofree char *text = NULL;
  guint a, b, n, last, n_pinned;
  const guint *order;

  if (trace == NULL)
    return;
  layout = chrono_track_layout_new (trace);
  g_assert_true (find_pair (layout, &a, &b));
  g_assert_true (chrono_track_layout_move (layout, b, -1));
  order = chrono_track_layout_get_order (layout, &n);
  last = order[n - 1];
  chrono_track_layout_set_pinned (layout, last, TRUE);
  chrono_track_layout_set_pinned (layout, b, TRUE);
  chrono_track_layout_set_hidden (layout, a, TRUE);

  /* Through text, as the sidecar keeps it, into a fresh layout. */
  node = chrono_track_layout_to_json (layout);
  text = json_to_string (node, FALSE);
  g_clear_pointer (&node, json_node_unref);
  node = json_from_string (text, NULL);
  loaded = chrono_track_layout_new (trace);
  g_assert_true (chrono_track_layout_load_json (loaded, node, NULL));
  g_assert_cmpmem (chrono_track_layout_get_order (loaded, NULL), n * sizeof (guint),
                   chrono_track_layout_get_order (layout, NULL), n * sizeof (guint));
  g_assert_cmpmem (chrono_track_layout_get_pinned (loaded, &n_pinned), n_pinned * sizeof (guint),
                   chrono_track_layout_get_pinned (layout, NULL), 2 * sizeof (guint));
  g_assert_cmpuint (n_pinned, ==, 2);
  g_assert_true (chrono_track_layout_is_hidden (loaded, a));
  g_assert_cmpuint (chrono_track_layout_get_n_hidden (loaded), ==, 1);
}

static void
test_json_bad (void)
{
  static const char * const bad[] = {
    "[]",
    "{\"order\": 3}",
    "{\"pinned\": [1, 2]}",
    "{\"hidden\": {\"a\": 1}}",
  };
  g_autoptr(ChronoTrace) trace = test_traces_load (REAL_TRACE);
  g_autoptr(ChronoTrackLayout) layout = NULL;
  g_autoptr(JsonNode) names = NULL;
  g_autofree guint *trace_order = NULL;
  guint n_tracks, n_pinned;

  if (trace == NULL)
    return;
  layout = chrono_track_layout_new (trace);
  trace_order = chrono_trace_dup_track_order (trace, &n_tracks);

  /* Refused whole: nothing changes. */
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(JsonNode) node = json_from_string (bad[i], NULL);
      g_autoptr(GError) error = NULL;

      g_assert_false (chrono_track_layout_load_json (layout, node, &error));
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
      g_assert_cmpuint (chrono_track_layout_get_n_hidden (layout), ==, 0);
    }

  /* Names of tracks this trace does not have are passed over. */
  names = json_from_string ("{\"order\": [\"no such track\"], \"pinned\": [\"nor this\"]}", NULL);
  g_assert_true (chrono_track_layout_load_json (layout, names, NULL));
  chrono_track_layout_get_pinned (layout, &n_pinned);
  g_assert_cmpuint (n_pinned, ==, 0);
  assert_devices_first (layout, trace_order, n_tracks);
}

static void
test_collapse (void)
{
  g_autoptr(ChronoTrace) trace = test_traces_load (REAL_TRACE);
  g_autoptr(ChronoTrackLayout) layout = NULL;
  g_autoptr(ChronoTrackLayout) loaded = NULL;
  g_autoptr(ChronoSidecar) sidecar = NULL;
  g_autoptr(ChronoSidecar) reread = NULL;
  g_autoptr(JsonNode) old = NULL;
  g_autoptr(JsonNode) bad = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = NULL;
  guint n_processes, n_changes = 0, a, b;

  if (trace == NULL)
    {
      g_test_skip ("no " REAL_TRACE " (set CHRONO_TRACES_DIR)");
      return;
    }
  n_processes = chrono_trace_get_n_processes (trace);
  g_assert_cmpuint (n_processes, >=, 2);
  layout = chrono_track_layout_new (trace);
  g_signal_connect_swapped (layout, "changed", G_CALLBACK (count_cb), &n_changes);
  g_assert_true (find_pair (layout, &a, &b));
  g_assert_cmpuint (chrono_track_layout_get_n_collapsed (layout), ==, 0);

  /* One process, then all of them, then none; no change, no signal. */
  chrono_track_layout_set_collapsed (layout, 1, TRUE);
  chrono_track_layout_set_collapsed (layout, 1, TRUE);
  g_assert_cmpuint (n_changes, ==, 1);
  g_assert_true (chrono_track_layout_is_collapsed (layout, 1));
  g_assert_false (chrono_track_layout_is_collapsed (layout, 0));
  chrono_track_layout_set_all_collapsed (layout, TRUE);
  g_assert_cmpuint (chrono_track_layout_get_n_collapsed (layout), ==, n_processes);
  chrono_track_layout_set_all_collapsed (layout, FALSE);
  chrono_track_layout_set_all_collapsed (layout, FALSE);
  g_assert_cmpuint (n_changes, ==, 3);
  g_assert_cmpuint (chrono_track_layout_get_n_collapsed (layout), ==, 0);

  /* Through a sidecar file, as the app keeps it, with a hidden track. */
  chrono_track_layout_set_collapsed (layout, n_processes - 1, TRUE);
  chrono_track_layout_set_hidden (layout, a, TRUE);
  dir = g_dir_make_tmp ("chronoscope-layout-XXXXXX", &error);
  g_assert_no_error (error);
  sidecar = chrono_sidecar_new (chrono_trace_get_path (trace), dir);
  chrono_sidecar_set_section (sidecar, "tracks", chrono_track_layout_to_json (layout));
  g_assert_true (chrono_sidecar_save (sidecar, &error));
  g_assert_no_error (error);
  reread = chrono_sidecar_new (chrono_trace_get_path (trace), dir);
  g_assert_true (chrono_sidecar_load (reread, &error));
  g_assert_no_error (error);
  loaded = chrono_track_layout_new (trace);
  g_assert_nonnull (chrono_sidecar_get_section (reread, "tracks"));
  g_assert_true (chrono_track_layout_load_json (loaded, chrono_sidecar_get_section (reread, "tracks"), &error));
  g_assert_no_error (error);
  g_assert_cmpuint (chrono_track_layout_get_n_collapsed (loaded), ==, 1);
  g_assert_true (chrono_track_layout_is_collapsed (loaded, n_processes - 1));
  g_assert_true (chrono_track_layout_is_hidden (loaded, a));
  g_assert_cmpint (g_remove (chrono_sidecar_get_path (sidecar)), ==, 0);
  g_assert_cmpint (g_rmdir (dir), ==, 0);

  /* A section written before groups collapsed still loads, all open. */
  old = json_from_string ("{\"order\": [], \"pinned\": [], \"hidden\": []}", NULL);
  g_assert_true (chrono_track_layout_load_json (loaded, old, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (chrono_track_layout_get_n_collapsed (loaded), ==, 0);
  g_assert_false (chrono_track_layout_is_hidden (loaded, a));

  /* A bad list is refused whole. */
  bad = json_from_string ("{\"collapsed\": [7]}", NULL);
  g_assert_false (chrono_track_layout_load_json (layout, bad, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_assert_true (chrono_track_layout_is_collapsed (layout, n_processes - 1));
}

/* Deep host stacks open capped; device tracks never are; expanding is
 * kept through the sidecar section, and a section without it loads capped. */
static void
test_depth_cap (void)
{
  g_autoptr(ChronoTrace) trace = test_traces_load (DEVICE_TRACE);
  g_autoptr(ChronoTrackLayout) layout = NULL;
  g_autoptr(ChronoTrackLayout) loaded = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(JsonNode) old = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree guint *trace_order = NULL;
  guint n_tracks, n_changes = 0, host = G_MAXUINT, n_devices = 0;

  if (trace == NULL)
    return;
  layout = chrono_track_layout_new (trace);
  trace_order = chrono_trace_dup_track_order (trace, &n_tracks);
  assert_devices_first (layout, trace_order, n_tracks);
  g_signal_connect_swapped (layout, "changed", G_CALLBACK (count_cb), &n_changes);

  for (guint t = 0; t < n_tracks; t++)
    {
      const ChronoTrack *track = chrono_trace_get_track (trace, t);

      g_assert_false (chrono_track_layout_is_expanded (layout, t));
      if (is_device (trace, t))
        {
          n_devices++;
          g_assert_cmpuint (chrono_track_layout_get_max_rows (layout, t), ==, G_MAXUINT);
        }
      else
        {
          g_assert_cmpuint (chrono_track_layout_get_max_rows (layout, t), ==, CHRONO_TRACK_LAYOUT_CAPPED_ROWS);
          if (track->max_depth >= CHRONO_TRACK_LAYOUT_CAPPED_ROWS && host == G_MAXUINT)
            host = t;
        }
    }
  /* The trace has device lanes under a deep host stack. */
  g_assert_cmpuint (n_devices, >, 0);
  g_assert_cmpuint (host, !=, G_MAXUINT);
  /* The first tracks are the devices'. */
  g_assert_true (is_device (trace, chrono_track_layout_get_order (layout, NULL)[0]));

  chrono_track_layout_set_expanded (layout, host, TRUE);
  chrono_track_layout_set_expanded (layout, host, TRUE);
  g_assert_cmpuint (n_changes, ==, 1);
  g_assert_true (chrono_track_layout_is_expanded (layout, host));
  g_assert_cmpuint (chrono_track_layout_get_max_rows (layout, host), ==, G_MAXUINT);

  node = chrono_track_layout_to_json (layout);
  loaded = chrono_track_layout_new (trace);
  g_assert_true (chrono_track_layout_load_json (loaded, node, &error));
  g_assert_no_error (error);
  g_assert_true (chrono_track_layout_is_expanded (loaded, host));
  g_assert_cmpmem (chrono_track_layout_get_order (loaded, NULL), n_tracks * sizeof (guint),
                   chrono_track_layout_get_order (layout, NULL), n_tracks * sizeof (guint));

  old = json_from_string ("{\"order\": [], \"pinned\": [], \"hidden\": [], \"collapsed\": []}", NULL);
  g_assert_true (chrono_track_layout_load_json (loaded, old, &error));
  g_assert_false (chrono_track_layout_is_expanded (loaded, host));
  assert_devices_first (loaded, trace_order, n_tracks);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/track-layout/edit", test_edit);
  g_test_add_func ("/track-layout/json", test_json);
  g_test_add_func ("/track-layout/json-bad", test_json_bad);
  g_test_add_func ("/track-layout/collapse", test_collapse);
  g_test_add_func ("/track-layout/depth-cap", test_depth_cap);
  return g_test_run ();
}
