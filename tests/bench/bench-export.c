/* bench-export.c: how long a picture of the timeline takes to draw and
 * write once the trace is loaded, and how big its SVG gets, from the
 * whole trace down to a few microseconds
 *
 *   chronoscope-cli example --size 1GB -o big.json
 *   bench-export big.json
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gstdio.h>

#include "chrono-loader.h"
#include "chrono-picture.h"
#include "chrono-timeline-scene.h"
#include "chrono-track-index.h"

#define WIDTH  1600
#define HEIGHT 1000
#define RUNS   3

static double
now_s (void)
{
  return g_get_monotonic_time () / 1e6;
}

static goffset
file_size (const char *path)
{
  GStatBuf st;

  return g_stat (path, &st) == 0 ? st.st_size : -1;
}

int
main (int   argc,
      char *argv[])
{
  static const char *const formats[] = { "png", "svg", "pdf" };
  /* The window's share of the trace: whole, a tenth, a thousandth, a
   * millionth. */
  static const double shares[] = { 1, 1e-1, 1e-3, 1e-6 };
  g_autoptr(ChronoTrace) trace = NULL;
  g_autoptr(ChronoTrackLayout) layout = NULL;
  g_autoptr(ChronoViewport) viewport = NULL;
  g_autoptr(ChronoTimelineScene) scene = NULL;
  g_autoptr(GPtrArray) indexes = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = NULL;
  const ChronoPictureOptions options = { "Benchmark", "the whole trace", TRUE, 1 };
  double t0, index_s;
  gint64 start, end;

  if (argc != 2)
    {
      g_printerr ("Usage: bench-export TRACE\n");
      return 2;
    }
  t0 = now_s ();
  trace = chrono_trace_load_file (argv[1], NULL, NULL, NULL, &error);
  if (trace == NULL)
    {
      g_printerr ("%s\n", error->message);
      return 1;
    }
  g_print ("loaded in %.2f s\n", now_s () - t0);

  t0 = now_s ();
  indexes = chrono_track_index_new_all (trace, NULL);
  index_s = now_s () - t0;
  g_print ("track indexes: %.3f s (the application builds them while loading)\n", index_s);

  dir = g_dir_make_tmp ("chrono-bench-export-XXXXXX", NULL);
  layout = chrono_track_layout_new (trace);
  viewport = chrono_viewport_new ();
  start = chrono_trace_get_start_ns (trace);
  end = chrono_trace_get_end_ns (trace);
  chrono_viewport_set_bounds (viewport, start, end);
  scene = chrono_timeline_scene_new (trace, indexes, layout, viewport);
  chrono_timeline_scene_set_size (scene, WIDTH, HEIGHT);

  g_print ("%u x %u px timeline, first / best of %d runs, size of the file\n", WIDTH, HEIGHT, RUNS);
  for (guint s = 0; s < G_N_ELEMENTS (shares); s++)
    {
      gint64 length = MAX ((gint64) ((end - start) * shares[s]), CHRONO_VIEWPORT_MIN_DURATION_NS);
      gint64 middle = start + (end - start) / 2;

      chrono_viewport_zoom_to_range (viewport, middle - length / 2, middle + length / 2);
      g_print ("  window %-10g of the trace:", shares[s]);
      for (guint f = 0; f < G_N_ELEMENTS (formats); f++)
        {
          g_autofree char *name = g_strdup_printf ("view.%s", formats[f]);
          g_autofree char *path = g_build_filename (dir, name, NULL);
          ChronoPictureFormat format;
          double best = G_MAXDOUBLE, first = 0;

          chrono_picture_format_for_path (path, &format);
          for (int r = 0; r < RUNS; r++)
            {
              double t = now_s ();

              if (!chrono_picture_write (scene, &options, format, path, &error))
                {
                  g_printerr ("%s\n", error->message);
                  return 1;
                }
              best = MIN (best, now_s () - t);
              if (r == 0)
                first = best;
            }
          g_print ("  %s %.3f / %.3f s %6.2f MB", formats[f], first, best, file_size (path) / 1e6);
          g_unlink (path);
        }
      g_print ("\n");
    }
  g_rmdir (dir);
  return 0;
}
