/* chrono-label-cache-private.h: span labels shaped once per string and
 * font, then drawn as text nodes at any place and any width
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

typedef struct _ChronoLabelCache ChronoLabelCache;

ChronoLabelCache *chrono_label_cache_new             (PangoContext               *context,
                                                      const PangoFontDescription *font);
void              chrono_label_cache_free            (ChronoLabelCache           *self);

/* Height of a line of text, and its baseline below the line's top. */
double            chrono_label_cache_get_line_height (ChronoLabelCache           *self);
double            chrono_label_cache_get_baseline    (ChronoLabelCache           *self);

/* The label of string ID (whose text is TEXT) as text nodes appended to
 * NODES, starting at X with its baseline at BASELINE: whole when it fits
 * in MAX_WIDTH, else cut at a character and ended with an ellipsis.
 * Returns the width drawn; 0, and nothing drawn, when not even one
 * character and the ellipsis fit. */
double            chrono_label_cache_append          (ChronoLabelCache           *self,
                                                      guint32                     id,
                                                      const char                 *text,
                                                      double                      x,
                                                      double                      baseline,
                                                      double                      max_width,
                                                      const GdkRGBA              *color,
                                                      GPtrArray                  *nodes);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ChronoLabelCache, chrono_label_cache_free)

G_END_DECLS
