/* chrono-cli-picture.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include "chrono-cli-picture.h"
#include "chrono-finding-scene.h"
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

  chrono_viewport_set_bounds (viewport, chrono_trace_get_start_ns (trace),
                              MAX (chrono_trace_get_end_ns (trace),
                                   chrono_trace_get_start_ns (trace) + CHRONO_VIEWPORT_MIN_DURATION_NS));
  /* Every track at once on worker threads, as the application does. */
  indexes = chrono_track_index_new_all (trace, NULL);
  scene = chrono_timeline_scene_new (trace, indexes, layout, viewport);
  chrono_timeline_scene_set_dark (scene, dark);
  chrono_cli_scene_fit (scene, width, height, cut);
  chrono_viewport_zoom_to_range (viewport, start, end);
  return scene;
}

void
chrono_cli_scene_fit (ChronoTimelineScene *scene,
                      int                  width,
                      int                  height,
                      gboolean            *cut)
{
  double full = chrono_timeline_scene_get_ruler_height (scene) + chrono_timeline_scene_get_content_height (scene);

  chrono_timeline_scene_set_size (scene, width, height > 0 ? height : MIN (CHRONO_CLI_MAX_AUTO_HEIGHT, full));
  if (cut != NULL)
    *cut = height <= 0 && full > CHRONO_CLI_MAX_AUTO_HEIGHT;
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

/* "1.5ms", "250us", "2s", "1200ns" or a bare number of milliseconds. */
static gboolean
parse_time (const char *text,
            gint64     *ns)
{
  static const struct { const char *unit; double ns; } units[] = {
    { "ns", 1 }, { "us", 1e3 }, { "µs", 1e3 }, { "ms", 1e6 }, { "s", 1e9 }, { "", 1e6 },
  };
  char *end = NULL;
  double value = g_ascii_strtod (text, &end);

  if (end == text || !isfinite (value))
    return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (units); i++)
    if (strcmp (end, units[i].unit) == 0)
      {
        double scaled = value * units[i].ns;

        if (fabs (scaled) > 9e18)
          return FALSE;
        *ns = (gint64) llround (scaled);
        return TRUE;
      }
  return FALSE;
}

gboolean
chrono_cli_parse_range (const char *text,
                        gint64     *start,
                        gint64     *end)
{
  g_auto(GStrv) parts = g_strsplit (text, ":", 2);

  return g_strv_length (parts) == 2 && parse_time (parts[0], start) && parse_time (parts[1], end) &&
         *end > *start;
}

gboolean
chrono_cli_filter_tracks (ChronoTrace       *trace,
                          ChronoTrackLayout *layout,
                          const char        *patterns)
{
  g_auto(GStrv) globs = g_strsplit (patterns, ",", -1);
  g_autoptr(GPtrArray) specs = g_ptr_array_new_with_free_func ((GDestroyNotify) g_pattern_spec_free);
  guint shown = 0;

  for (guint i = 0; globs[i] != NULL; i++)
    {
      g_strstrip (globs[i]);
      if (*globs[i] != '\0')
        g_ptr_array_add (specs, g_pattern_spec_new (globs[i]));
    }
  for (guint t = 0; t < chrono_trace_get_n_tracks (trace); t++)
    {
      const ChronoTrack *track = chrono_trace_get_track (trace, t);
      const char *name = chrono_trace_get_string (trace, track->display_name);
      const char *process = chrono_trace_get_string (trace,
                                                     chrono_trace_get_process (trace, track->process)->display_name);
      gboolean match = FALSE;

      for (guint i = 0; i < specs->len && !match; i++)
        match = g_pattern_spec_match_string (g_ptr_array_index (specs, i), name) ||
                g_pattern_spec_match_string (g_ptr_array_index (specs, i), process);
      chrono_track_layout_set_hidden (layout, t, !match);
      shown += match;
    }
  return shown > 0;
}

ChronoTimelineScene *
chrono_cli_finding_scene_new (ChronoAnalysis      *analysis,
                              const ChronoFinding *finding,
                              const char          *patterns,
                              int                  width,
                              int                  height,
                              gboolean             dark,
                              gboolean            *cut)
{
  ChronoTrace *trace = chrono_analysis_get_trace (analysis, chrono_finding_get_trace (finding));
  g_autoptr(GPtrArray) indexes = chrono_track_index_new_all (trace, NULL);
  g_autoptr(ChronoTimelineScene) scene = chrono_finding_scene_new (analysis, finding, indexes, width, dark);

  if (patterns != NULL && !chrono_cli_filter_tracks (trace, chrono_timeline_scene_get_layout (scene), patterns))
    return NULL;
  chrono_cli_scene_fit (scene, width, height, cut);
  return g_steal_pointer (&scene);
}
