/* chrono-step-bands.h: the training steps of a trace, drawn as bands
 * across every track so step boundaries show everywhere
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "chrono-trace.h"
#include "chrono-viewport.h"

G_BEGIN_DECLS

typedef struct {
  gint64        start_ns;
  gint64        end_ns;
  ChronoSpanRef span;
  guint32       name;
} ChronoStepBand;

/* The steps are the step spans (ProfilerStep#N on the host) of the
 * track that has most; without any, the spans named ProfilerStep#N of
 * another kind (GPU annotations) of the track that has most. Steps of
 * other threads and ranks repeat those and would only blur the bands. */
#define CHRONO_TYPE_STEP_BANDS (chrono_step_bands_get_type ())
G_DECLARE_FINAL_TYPE (ChronoStepBands, chrono_step_bands, CHRONO, STEP_BANDS, GObject)

ChronoStepBands      *chrono_step_bands_new         (ChronoTrace     *trace);
guint                 chrono_step_bands_get_n_bands (ChronoStepBands *self);
const ChronoStepBand *chrono_step_bands_get_band    (ChronoStepBands *self,
                                                     guint            index);
/* How many bands show in the viewport; *FIRST gets the first of them. */
guint                 chrono_step_bands_get_visible (ChronoStepBands *self,
                                                     ChronoViewport  *viewport,
                                                     guint           *first);
/* From y = 0 to HEIGHT: every other step (the first, third, ...) filled
 * with FILL, and a line of LINE where each step starts. Either may be
 * NULL. NULL when nothing shows. */
GskRenderNode        *chrono_step_bands_paint       (ChronoStepBands *self,
                                                     ChronoViewport  *viewport,
                                                     double           height,
                                                     const GdkRGBA   *fill,
                                                     const GdkRGBA   *line);

G_END_DECLS
