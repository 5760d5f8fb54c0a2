/* chrono-step-bands.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>

#include "chrono-image-node-private.h"
#include "chrono-max-blocks.h"
#include "chrono-step-bands.h"

/* Narrower steps are not drawn. */
#define MIN_BAND_PX 4.0

#define STEP_PREFIX "ProfilerStep#"

struct _ChronoStepBands
{
  GObject  parent_instance;

  GArray  *bands;   /* ChronoStepBand, by start */
  /* Their durations and those's block maxima: far out, runs of steps
   * too narrow to draw are passed a block at a time. */
  gint64  *durations;
  ChronoMaxBlocks duration_blocks;
};

G_DEFINE_FINAL_TYPE (ChronoStepBands, chrono_step_bands, G_TYPE_OBJECT)

static void
chrono_step_bands_finalize (GObject *object)
{
  ChronoStepBands *self = CHRONO_STEP_BANDS (object);

  g_clear_pointer (&self->bands, g_array_unref);
  g_clear_pointer (&self->durations, g_free);
  chrono_max_blocks_clear (&self->duration_blocks);

  G_OBJECT_CLASS (chrono_step_bands_parent_class)->finalize (object);
}

static void
chrono_step_bands_class_init (ChronoStepBandsClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = chrono_step_bands_finalize;

  /* Node types register with GTK, or on first request: painters also
   * run without it. */
  g_type_ensure (GSK_TYPE_COLOR_NODE);
  g_type_ensure (GSK_TYPE_CONTAINER_NODE);
}

static void
chrono_step_bands_init (ChronoStepBands *self)
{
  self->bands = g_array_new (FALSE, FALSE, sizeof (ChronoStepBand));
}

/* Whether span I of TRACK is a step: by kind, or by name when NAMED
 * (strings that start with the step prefix) is given. */
static inline gboolean
is_step (const ChronoTrack *track,
         guint32            i,
         const guint8      *named)
{
  if (named == NULL)
    return track->kind[i] == CHRONO_KIND_STEP;
  return named[chrono_track_get_name (track, i)];
}

/* The track with most steps, or G_MAXUINT when none has any. */
static guint
find_step_track (ChronoTrace  *trace,
                 const guint8 *named)
{
  guint best = G_MAXUINT;
  guint32 best_count = 0;

  for (guint t = 0; t < chrono_trace_get_n_tracks (trace); t++)
    {
      const ChronoTrack *track = chrono_trace_get_track (trace, t);
      guint32 count = 0;

      for (guint32 i = 0; i < track->n_spans; i++)
        count += is_step (track, i, named);
      if (count > best_count)
        {
          best = t;
          best_count = count;
        }
    }
  return best;
}

ChronoStepBands *
chrono_step_bands_new (ChronoTrace *trace)
{
  ChronoStepBands *self;
  g_autofree guint8 *named = NULL;
  const ChronoTrack *track;
  guint best;

  g_return_val_if_fail (CHRONO_IS_TRACE (trace), NULL);

  self = g_object_new (CHRONO_TYPE_STEP_BANDS, NULL);
  best = find_step_track (trace, NULL);
  if (best == G_MAXUINT)
    {
      named = g_new0 (guint8, chrono_trace_get_n_strings (trace));
      for (guint s = 0; s < chrono_trace_get_n_strings (trace); s++)
        named[s] = g_str_has_prefix (chrono_trace_get_string (trace, s), STEP_PREFIX);
      best = find_step_track (trace, named);
    }
  if (best == G_MAXUINT)
    return self;

  /* Spans are stored by start. */
  track = chrono_trace_get_track (trace, best);
  for (guint32 i = 0; i < track->n_spans; i++)
    if (is_step (track, i, named))
      {
        ChronoStepBand band = {
          track->start[i], chrono_track_get_end (track, i), { best, i }, chrono_track_get_name (track, i)
        };

        g_array_append_val (self->bands, band);
      }
  self->durations = g_new (gint64, MAX (self->bands->len, 1));
  for (guint b = 0; b < self->bands->len; b++)
    {
      const ChronoStepBand *band = &g_array_index (self->bands, ChronoStepBand, b);

      self->durations[b] = band->end_ns - band->start_ns;
    }
  chrono_max_blocks_init (&self->duration_blocks, self->durations, self->bands->len);
  return self;
}

guint
chrono_step_bands_get_n_bands (ChronoStepBands *self)
{
  g_return_val_if_fail (CHRONO_IS_STEP_BANDS (self), 0);
  return self->bands->len;
}

const ChronoStepBand *
chrono_step_bands_get_band (ChronoStepBands *self,
                            guint            index)
{
  g_return_val_if_fail (CHRONO_IS_STEP_BANDS (self), NULL);
  g_return_val_if_fail (index < self->bands->len, NULL);
  return &g_array_index (self->bands, ChronoStepBand, index);
}

guint
chrono_step_bands_get_visible (ChronoStepBands *self,
                               ChronoViewport  *viewport,
                               guint           *first)
{
  gint64 start, end;
  guint lo = 0, hi, last;

  g_return_val_if_fail (CHRONO_IS_STEP_BANDS (self), 0);
  g_return_val_if_fail (CHRONO_IS_VIEWPORT (viewport), 0);
  g_return_val_if_fail (first != NULL, 0);

  start = chrono_viewport_get_start_ns (viewport);
  end = chrono_viewport_get_end_ns (viewport);

  /* Steps follow each other without overlapping, so their ends are
   * sorted too: the first that ends after the window starts ... */
  hi = self->bands->len;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (g_array_index (self->bands, ChronoStepBand, mid).end_ns <= start)
        lo = mid + 1;
      else
        hi = mid;
    }
  /* ... to the last that starts before it ends. */
  for (last = lo; last < self->bands->len; last++)
    if (g_array_index (self->bands, ChronoStepBand, last).start_ns >= end)
      break;
  *first = lo;
  return last - lo;
}

/* From this many rectangles on, bands are drawn as one line of pixels
 * repeated down. Measured with the cairo renderer on 1000 x 815 px: the
 * rectangles cost about 0.3 ms and 5 µs each (mostly blending tall
 * one-pixel lines row by row), the repeated line about 0.5 ms. */
#define REPEAT_MIN_RECTS 100

GskRenderNode *
chrono_step_bands_paint (ChronoStepBands *self,
                         ChronoViewport  *viewport,
                         double           height,
                         const GdkRGBA   *fill,
                         const GdkRGBA   *line)
{
  g_autoptr(GPtrArray) nodes = NULL;
  g_autoptr(GskRenderNode) stripes = NULL;
  guint32 fill_pixel, line_pixel;
  cairo_surface_t *image;
  guint32 *pixels;
  double width;
  int columns;
  guint first, n;
  gint64 narrow;

  g_return_val_if_fail (CHRONO_IS_STEP_BANDS (self), NULL);
  g_return_val_if_fail (CHRONO_IS_VIEWPORT (viewport), NULL);

  width = chrono_viewport_get_width_px (viewport);
  n = chrono_step_bands_get_visible (self, viewport, &first);
  if (n == 0 || height <= 0)
    return NULL;

  /* The bands are the same on every line: as rectangles, and as one
   * line of pixels from x = -1 on, blended as the rectangles would be. */
  nodes = g_ptr_array_new_with_free_func ((GDestroyNotify) gsk_render_node_unref);
  columns = (int) ceil (width) + 3;
  image = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, columns, 1);
  cairo_surface_flush (image);
  pixels = (guint32 *) cairo_image_surface_get_data (image);
  fill_pixel = fill != NULL ? chrono_image_node_pixel (fill) : 0;
  line_pixel = line != NULL ? chrono_image_node_pixel (line) : 0;
  /* Steps shorter than this are narrower than MIN_BAND_PX however they
   * round: a block of them is passed at once. */
  narrow = (gint64) MIN (floor ((MIN_BAND_PX - 1) / chrono_viewport_get_px_per_ns (viewport)), 1e18);
  for (guint i = first; i < first + n; i++)
    {
      const ChronoStepBand *band = &g_array_index (self->bands, ChronoStepBand, i);
      guint passed = chrono_max_blocks_step (&self->duration_blocks, self->durations, i, narrow);
      double x0, x1;

      /* Far out, steps a few pixels wide would stripe the whole area and
       * cost a frame thousands of blended rectangles: they are left out. */
      if (passed > 0)
        {
          i += passed - 1;
          continue;
        }
      x0 = round (CLAMP (chrono_viewport_time_to_x (viewport, band->start_ns), -1, width + 1));
      x1 = round (CLAMP (chrono_viewport_time_to_x (viewport, band->end_ns), -1, width + 1));
      if (x1 - x0 < MIN_BAND_PX)
        continue;
      /* Every other step, counted from the trace's first, so a band
       * keeps its shade while the view moves. */
      if (fill != NULL && i % 2 == 0 && x1 > x0)
        {
          g_ptr_array_add (nodes, gsk_color_node_new (fill, &GRAPHENE_RECT_INIT (x0, 0, x1 - x0, height)));
          for (int x = (int) x0; x < (int) x1; x++)
            pixels[x + 1] = chrono_image_node_blend (fill_pixel, pixels[x + 1]);
        }
      if (line != NULL && x0 >= 0 && x0 < width)
        {
          g_ptr_array_add (nodes, gsk_color_node_new (line, &GRAPHENE_RECT_INIT (x0, 0, 1, height)));
          pixels[(int) x0 + 1] = chrono_image_node_blend (line_pixel, pixels[(int) x0 + 1]);
        }
    }
  cairo_surface_mark_dirty (image);
  if (nodes->len < REPEAT_MIN_RECTS)
    {
      cairo_surface_destroy (image);
      if (nodes->len == 0)
        return NULL;
      return gsk_container_node_new ((GskRenderNode **) nodes->pdata, nodes->len);
    }
  stripes = chrono_image_node_new (image, -1, 0);
  return gsk_repeat_node_new (&GRAPHENE_RECT_INIT (-1, 0, columns, height), stripes,
                              &GRAPHENE_RECT_INIT (-1, 0, columns, 1));
}
