/* chrono-text-cache.h: names and ruler labels, shaped once and drawn
 * many times, in one Pango context
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

typedef struct _ChronoTextCache ChronoTextCache;

ChronoTextCache *chrono_text_cache_new     (PangoContext    *context);
void             chrono_text_cache_free    (ChronoTextCache *self);
/* Layouts follow changes of CONTEXT by themselves. */
PangoContext    *chrono_text_cache_get_context (ChronoTextCache *self);
/* How wide TEXT is, whole. */
double           chrono_text_cache_measure (ChronoTextCache *self,
                                            const char      *text);
/* TEXT from X, centred in Y to Y + HEIGHT, ellipsized to MAX_WIDTH
 * when it is positive. */
void             chrono_text_cache_append  (ChronoTextCache *self,
                                            GtkSnapshot     *snapshot,
                                            const char      *text,
                                            double           x,
                                            double           y,
                                            double           max_width,
                                            double           height,
                                            const GdkRGBA   *color);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ChronoTextCache, chrono_text_cache_free)

G_END_DECLS
