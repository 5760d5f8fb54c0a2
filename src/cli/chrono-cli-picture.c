/* chrono-cli-picture.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "chrono-cli-picture.h"
#include "chrono-format.h"
#include "chrono-time-ticks.h"
#include "chrono-track-index.h"

ChronoTimelineScene *
chrono_cli_scene_new (ChronoTrace       *trace,
                      ChronoTrackLayout *layout,
                      gint64             start,
                      gint64             end,
                      int                width,
                      int                height,
                      gboolean           dark,
                      gboolean          *cut)
{
  g_autoptr(ChronoViewport) viewport = chrono_viewport_new ();
  g_autoptr(GPtrArray) indexes = NULL;
  ChronoTimelineScene *scene;
  double full;

  chrono_viewport_set_bounds (viewport, chrono_trace_get_start_ns (trace),
                              MAX (chrono_trace_get_end_ns (trace),
                                   chrono_trace_get_start_ns (trace) + CHRONO_VIEWPORT_MIN_DURATION_NS));
  /* Every track at once on worker threads, as the application does. */
  indexes = chrono_track_index_new_all (trace, NULL);
  scene = chrono_timeline_scene_new (trace, indexes, layout, viewport);
  chrono_timeline_scene_set_dark (scene, dark);
  full = chrono_timeline_scene_get_ruler_height (scene) + chrono_timeline_scene_get_content_height (scene);
  chrono_timeline_scene_set_size (scene, width, height > 0 ? height : MIN (CHRONO_CLI_MAX_AUTO_HEIGHT, full));
  chrono_viewport_zoom_to_range (viewport, start, end);
  if (cut != NULL)
    *cut = height <= 0 && full > CHRONO_CLI_MAX_AUTO_HEIGHT;
  return scene;
}

char *
chrono_cli_subtitle (ChronoTimelineScene *scene,
                     const char          *file,
                     guint                n_more)
{
  ChronoViewport *viewport = chrono_timeline_scene_get_viewport (scene);
  gint64 start = chrono_viewport_get_start_ns (viewport), end = chrono_viewport_get_end_ns (viewport);
  gint64 zero = chrono_trace_get_start_ns (chrono_timeline_scene_get_trace (scene));
  gint64 step = chrono_ticks_step_at_least ((end - start) / 1000.0);
  g_autofree char *name = g_path_get_basename (file);
  g_autofree char *from = chrono_time_format_offset (start - zero, end - zero, step);
  g_autofree char *to = chrono_time_format_offset (end - zero, end - zero, step);
  g_autofree char *length = chrono_format_duration (end - start);

  if (n_more > 0)
    return g_strdup_printf ("%s and %u more · %s to %s (%s)", name, n_more, from, to, length);
  return g_strdup_printf ("%s · %s to %s (%s)", name, from, to, length);
}
