/* bench-paint.c: how long painting a whole timeline takes
 *
 * Usage: bench-paint TRACE [--width PX] [--row-height PX] [--zooms N]
 *                          [--repeat N] [--seed S] [--dark] [--draw]
 *                          [--png FILE] [--verbose]
 *
 * Loads TRACE, indexes every track (timed, with the index's bytes), then
 * paints every track, spans, instants and counters, stacked as a timeline
 * of WIDTH px, at full-trace zoom and at N random zoom levels (log-uniform
 * between 10 µs and the whole trace), REPEAT times each. Prints the
 * p50/p95/p99 of the time to build a frame's render nodes, as wall-clock
 * time and as the thread's CPU time (steadier on a busy machine), and
 * with --draw also of rasterizing it with cairo (GSK's software path). --png
 * writes the full-trace frame; --verbose prints every zoom level.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bench-stats.h"
#include "chrono-loader.h"
#include "chrono-track-painter.h"

#define INSTANT_STRIP_PX 10.0
#define COUNTER_PX       30.0
#define MIN_ZOOM_NS      10000.0

typedef struct {
  guint colors;
  guint texts;
  guint cairos;
  guint containers;
} NodeCount;

typedef struct {
  ChronoTrace         *trace;
  ChronoTrackPainter  *painter;
  ChronoViewport      *viewport;
  GPtrArray           *indexes;
  double               row_height;
} Timeline;

static void
count_nodes (GskRenderNode *node,
             NodeCount     *count)
{
  switch (gsk_render_node_get_node_type (node))
    {
    case GSK_CONTAINER_NODE:
      count->containers++;
      for (guint i = 0; i < gsk_container_node_get_n_children (node); i++)
        count_nodes (gsk_container_node_get_child (node, i), count);
      break;
    case GSK_TRANSFORM_NODE:
      count_nodes (gsk_transform_node_get_child (node), count);
      break;
    case GSK_COLOR_NODE:
      count->colors++;
      break;
    case GSK_TEXT_NODE:
      count->texts++;
      break;
    case GSK_CAIRO_NODE:
      count->cairos++;
      break;
    default:
      break;
    }
}

static void
stack (GPtrArray     *children,
       GskRenderNode *node,
       double         y)
{
  g_autoptr(GskTransform) shift = NULL;

  if (node == NULL)
    return;
  /* Translating by nothing gives no transform at all. */
  shift = gsk_transform_translate (NULL, &GRAPHENE_POINT_INIT (0, y));
  if (shift == NULL)
    {
      g_ptr_array_add (children, node);
      return;
    }
  g_ptr_array_add (children, gsk_transform_node_new (node, shift));
  gsk_render_node_unref (node);
}

/* Every track, one under the other, as the timeline shows them. */
static GskRenderNode *
paint_frame (Timeline *tl,
             double   *height)
{
  g_autoptr(GPtrArray) children = g_ptr_array_new_with_free_func ((GDestroyNotify) gsk_render_node_unref);
  double y = 0;

  for (guint i = 0; i < tl->indexes->len; i++)
    {
      ChronoTrackIndex *index = g_ptr_array_index (tl->indexes, i);
      const ChronoTrack *t = chrono_track_index_get_track (index);

      if (t->n_instants > 0)
        {
          stack (children, chrono_track_painter_paint_instants (tl->painter, index, tl->viewport,
                                                                INSTANT_STRIP_PX), y);
          y += INSTANT_STRIP_PX;
        }
      if (t->n_samples > 0)
        {
          stack (children, chrono_track_painter_paint_counter (tl->painter, index, tl->viewport,
                                                               COUNTER_PX), y);
          y += COUNTER_PX;
        }
      stack (children, chrono_track_painter_paint_spans (tl->painter, index, tl->viewport,
                                                         tl->row_height), y);
      y += chrono_track_index_get_n_rows (index) * tl->row_height;
    }
  *height = y;
  return gsk_container_node_new ((GskRenderNode **) children->pdata, children->len);
}

static void
print_percentiles (const char *what,
                   GArray     *ms)
{
  printf ("%-22s p50 %8.3f ms   p95 %8.3f ms   p99 %8.3f ms   (%u frames)\n", what,
          bench_percentile (ms, 50), bench_percentile (ms, 95), bench_percentile (ms, 99),
          ms->len);
}

static double
draw_frame (GskRenderNode *frame,
            int            width,
            double         height,
            const char    *png)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width,
                                                         (int) MAX (ceil (height), 1));
  cairo_t *cr = cairo_create (surface);
  gint64 t0 = g_get_monotonic_time ();
  double ms;

  gsk_render_node_draw (frame, cr);
  cairo_surface_flush (surface);
  ms = (g_get_monotonic_time () - t0) / 1000.0;
  if (png != NULL)
    cairo_surface_write_to_png (surface, png);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
  return ms;
}

int
main (int   argc,
      char *argv[])
{
  int width = 1600, zooms = 20, repeat = 5;
  double row_height = 18;
  gint64 seed = 1;
  gboolean dark = FALSE, draw = FALSE, verbose = FALSE;
  g_autofree char *png = NULL;
  GOptionEntry entries[] = {
    { "width", 0, 0, G_OPTION_ARG_INT, &width, "Timeline width in px (1600)", "PX" },
    { "row-height", 0, 0, G_OPTION_ARG_DOUBLE, &row_height, "Row height in px (18)", "PX" },
    { "zooms", 0, 0, G_OPTION_ARG_INT, &zooms, "Random zoom levels (20)", "N" },
    { "repeat", 0, 0, G_OPTION_ARG_INT, &repeat, "Frames per zoom level (5)", "N" },
    { "seed", 0, 0, G_OPTION_ARG_INT64, &seed, "Seed of the zoom levels (1)", "S" },
    { "dark", 0, 0, G_OPTION_ARG_NONE, &dark, "Dark palette", NULL },
    { "draw", 0, 0, G_OPTION_ARG_NONE, &draw, "Also rasterize each frame with cairo", NULL },
    { "png", 0, 0, G_OPTION_ARG_FILENAME, &png, "Write the full-trace frame", "FILE" },
    { "verbose", 'v', 0, G_OPTION_ARG_NONE, &verbose, "Print every zoom level", NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) options = g_option_context_new ("TRACE");
  g_autoptr(GError) error = NULL;
  g_autoptr(GRand) rand = NULL;
  g_autoptr(GArray) build_ms = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) build_cpu_ms = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) draw_ms = g_array_new (FALSE, FALSE, sizeof (double));
  Timeline tl = { 0 };
  gint64 t0, start, end;
  double cpu;
  gsize index_bytes = 0;
  guint64 n_spans = 0;

  g_option_context_add_main_entries (options, entries, NULL);
  if (!g_option_context_parse (options, &argc, &argv, &error) || argc != 2)
    {
      fprintf (stderr, "%s\n", error ? error->message : "Usage: bench-paint TRACE");
      return 2;
    }

  t0 = g_get_monotonic_time ();
  tl.trace = chrono_trace_load_file (argv[1], NULL, NULL, NULL, &error);
  if (tl.trace == NULL)
    {
      fprintf (stderr, "%s\n", error->message);
      return 1;
    }
  printf ("load                   %.2f s\n", (g_get_monotonic_time () - t0) / 1e6);

  t0 = g_get_monotonic_time ();
  cpu = bench_thread_cpu_ms ();
  tl.indexes = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < chrono_trace_get_n_tracks (tl.trace); i++)
    {
      ChronoTrackIndex *index = chrono_track_index_new (tl.trace, i);

      index_bytes += chrono_track_index_get_memory_size (index);
      n_spans += chrono_trace_get_track (tl.trace, i)->n_spans;
      g_ptr_array_add (tl.indexes, index);
    }
  printf ("index                  %.1f ms (%.1f ms CPU), %.1f MB for %" G_GUINT64_FORMAT
          " spans (%.2f B/span)\n",
          (g_get_monotonic_time () - t0) / 1000.0, bench_thread_cpu_ms () - cpu, index_bytes / 1e6, n_spans,
          n_spans ? (double) index_bytes / n_spans : 0.0);

  tl.painter = chrono_track_painter_new (tl.trace);
  chrono_track_painter_set_dark (tl.painter, dark);
  tl.viewport = chrono_viewport_new ();
  tl.row_height = row_height;
  chrono_viewport_set_width_px (tl.viewport, width);
  start = chrono_trace_get_start_ns (tl.trace);
  end = chrono_trace_get_end_ns (tl.trace);
  chrono_viewport_set_bounds (tl.viewport, start, MAX (end, start + 1));

  rand = g_rand_new_with_seed ((guint32) seed);
  for (int z = 0; z <= zooms; z++)
    {
      if (z == 0)
        chrono_viewport_show_all (tl.viewport);
      else
        {
          double full = MAX ((double) (end - start), MIN_ZOOM_NS);
          double span = exp (g_rand_double_range (rand, log (MIN_ZOOM_NS), log (full)));
          double at = g_rand_double_range (rand, 0, full - span);

          chrono_viewport_zoom_to_range (tl.viewport, start + (gint64) at,
                                         start + (gint64) (at + span));
        }

      for (int r = 0; r < repeat; r++)
        {
          GskRenderNode *frame;
          double height, ms, frame_cpu;

          t0 = g_get_monotonic_time ();
          cpu = bench_thread_cpu_ms ();
          frame = paint_frame (&tl, &height);
          frame_cpu = bench_thread_cpu_ms () - cpu;
          ms = (g_get_monotonic_time () - t0) / 1000.0;
          g_array_append_val (build_ms, ms);
          g_array_append_val (build_cpu_ms, frame_cpu);

          if (r == 0 && (z == 0 || verbose))
            {
              NodeCount count = { 0 };

              count_nodes (frame, &count);
              printf ("%s %.3f ms (first, new labels shaped): window %.6f s, %u rects, "
                      "%u labels, %u cairo nodes, %u containers, %.0f px tall\n",
                      z == 0 ? "full-trace frame      " : "zoom                  ",
                      ms, chrono_viewport_get_duration (tl.viewport) / 1e9,
                      count.colors, count.texts, count.cairos, count.containers, height);
            }
          if (draw || (png != NULL && z == 0 && r == 0))
            {
              double drawn = draw_frame (frame, width, height, z == 0 && r == 0 ? png : NULL);

              if (draw)
                g_array_append_val (draw_ms, drawn);
            }
          gsk_render_node_unref (frame);
        }
    }

  print_percentiles ("build nodes (wall)", build_ms);
  print_percentiles ("build nodes (CPU)", build_cpu_ms);
  if (draw)
    print_percentiles ("cairo raster", draw_ms);

  g_object_unref (tl.viewport);
  g_object_unref (tl.painter);
  g_ptr_array_unref (tl.indexes);
  g_object_unref (tl.trace);
  return 0;
}
