/* chrono-time-ruler.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gi18n-lib.h>
#include <string.h>

#include "chrono-time-ruler.h"
#include "chrono-timeline-scene.h"

#define HEADER_WIDTH CHRONO_SCENE_HEADER_WIDTH
#define STRIP_HEIGHT CHRONO_SCENE_STEP_STRIP_HEIGHT
#define TEXT_INSET   8.0

typedef struct {
  ChronoTextCache *text;
  ChronoTrace     *trace;
  ChronoStepBands *steps;
  ChronoViewport  *viewport;
  double           width;
} Ruler;

/* The ruler's lower strip: the steps, shaded as in the tracks, each
 * with its name, or only its number where the name does not fit. */
static void
snapshot_step_strip (const Ruler   *self,
                     GtkSnapshot   *snapshot,
                     const ChronoSceneColors *colors)
{
  const double time_height = CHRONO_SCENE_RULER_HEIGHT - STRIP_HEIGHT;
  double track_width = self->width - HEADER_WIDTH;
  GdkRGBA fill = colors->text, line = colors->text;
  g_autoptr(GskRenderNode) node = NULL;
  guint first, n;

  if (chrono_step_bands_get_n_bands (self->steps) == 0)
    return;
  chrono_text_cache_append (self->text, snapshot, _("Steps"), TEXT_INSET, time_height,
               HEADER_WIDTH - 2 * TEXT_INSET, STRIP_HEIGHT - 1, &colors->dim_text);

  fill.alpha = 0.1;
  line.alpha = 0.3;
  /* NULL for an unshaded step that starts before the window: its name
   * shows all the same. */
  node = chrono_step_bands_paint (self->steps, self->viewport, STRIP_HEIGHT - 1, &fill, &line);

  gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (HEADER_WIDTH, time_height, track_width,
                                                         STRIP_HEIGHT - 1));
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (HEADER_WIDTH, time_height));
  if (node != NULL)
    gtk_snapshot_append_node (snapshot, node);

  n = chrono_step_bands_get_visible (self->steps, self->viewport, &first);
  for (guint i = first; i < first + n; i++)
    {
      const ChronoStepBand *band = chrono_step_bands_get_band (self->steps, i);
      /* A step that starts off the left edge keeps its name in view. */
      double x0 = MAX (chrono_viewport_time_to_x (self->viewport, band->start_ns), 0) + 4;
      double x1 = MIN (chrono_viewport_time_to_x (self->viewport, band->end_ns), track_width) - 4;
      const char *name = chrono_trace_get_string (self->trace, band->name);
      const char *number = strrchr (name, '#');

      /* Narrow bands skip measuring: a frame may show thousands. */
      if (x1 - x0 < 12)
        continue;
      if (chrono_text_cache_measure (self->text, name) > x1 - x0 && number != NULL && number[1] != '\0')
        name = number;
      if (chrono_text_cache_measure (self->text, name) <= x1 - x0)
        chrono_text_cache_append (self->text, snapshot, name, x0, 0, -1, STRIP_HEIGHT - 1, &colors->text);
    }
  gtk_snapshot_restore (snapshot);
  gtk_snapshot_pop (snapshot);
}

void
chrono_time_ruler_snapshot (GtkSnapshot             *snapshot,
                            ChronoTextCache         *text,
                            ChronoTrace             *trace,
                            ChronoStepBands         *steps,
                            ChronoViewport          *viewport,
                            double                   width,
                            ChronoTicks             *ticks,
                            const char              *zero_label,
                            const ChronoSceneColors *colors)
{
  const Ruler ruler = { text, trace, steps, viewport, width }, *self = &ruler;
  const double time_height = CHRONO_SCENE_RULER_HEIGHT - STRIP_HEIGHT;

  gtk_snapshot_append_color (snapshot, &colors->header,
                             &GRAPHENE_RECT_INIT (0, 0, width, CHRONO_SCENE_RULER_HEIGHT));
  gtk_snapshot_append_color (snapshot, &colors->line,
                             &GRAPHENE_RECT_INIT (0, CHRONO_SCENE_RULER_HEIGHT - 1, width, 1));

  gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (HEADER_WIDTH, 0,
                                                         width - HEADER_WIDTH, CHRONO_SCENE_RULER_HEIGHT));
  for (guint i = 0; i < ticks->minor->len; i++)
    {
      const ChronoTick *tick = &g_array_index (ticks->minor, ChronoTick, i);

      gtk_snapshot_append_color (snapshot, &colors->line,
                                 &GRAPHENE_RECT_INIT (HEADER_WIDTH + floor (tick->x),
                                                      time_height - 5, 1, 5));
    }
  for (guint i = 0; i < ticks->major->len; i++)
    {
      const ChronoTick *tick = &g_array_index (ticks->major, ChronoTick, i);
      double x = HEADER_WIDTH + floor (tick->x);

      gtk_snapshot_append_color (snapshot, &colors->dim_text,
                                 &GRAPHENE_RECT_INIT (x, time_height - 10, 1, 10));
      /* A label cut by either edge would read as another time. */
      if (tick->label != NULL && tick->x >= 0 &&
          x + 4 + chrono_text_cache_measure (self->text, tick->label) <= width)
        chrono_text_cache_append (self->text, snapshot, tick->label, x + 4, 0, -1, time_height - 6, &colors->text);
    }
  gtk_snapshot_pop (snapshot);

  /* The header column of the ruler names what the labels count from. */
  chrono_text_cache_append (self->text, snapshot, zero_label != NULL ? zero_label : _("Time from start"), TEXT_INSET, 0,
               HEADER_WIDTH - 2 * TEXT_INSET, time_height, &colors->dim_text);
  snapshot_step_strip (self, snapshot, colors);
}
