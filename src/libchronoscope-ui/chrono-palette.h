/* chrono-palette.h: colours for spans, merged blocks, text, instants and
 * counters, for light and dark themes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gdk/gdk.h>

#include "chrono-types.h"

G_BEGIN_DECLS

/* Each kind has a family of hues; a name picks a stable colour inside it
 * (the same on every run and machine). */
void   chrono_palette_span_color     (ChronoKind     kind,
                                      const char    *name,
                                      gboolean       dark,
                                      GdkRGBA       *color);
/* A block that stands for many spans of mostly this kind. */
void   chrono_palette_merged_color   (ChronoKind     kind,
                                      gboolean       dark,
                                      GdkRGBA       *color);
/* Black or white, whichever reads better on BACKGROUND. */
void   chrono_palette_text_color     (const GdkRGBA *background,
                                      GdkRGBA       *color);
/* The shades of a device's idle time, SHADE 0 to 2 (waiting for the host,
 * for a kernel, other): greys apart in lightness, which every kind of
 * colour vision tells apart, in either theme. */
void   chrono_palette_idle_color     (guint          shade,
                                      gboolean       dark,
                                      GdkRGBA       *color);
void   chrono_palette_instant_color  (gboolean       dark,
                                      GdkRGBA       *color);
void   chrono_palette_series_color   (const char    *name,
                                      gboolean       dark,
                                      GdkRGBA       *color);
/* The area under a series' line: its colour, faded into the theme's
 * background, opaque. */
void   chrono_palette_series_fill_color (const char *name,
                                         gboolean    dark,
                                         GdkRGBA    *color);
/* Arrows between spans: one strong hue a type, apart from every kind's
 * family, dark on light themes and light on dark ones. */
void   chrono_palette_flow_color     (ChronoFlowType type,
                                      gboolean       dark,
                                      GdkRGBA       *color);
/* The canvas the timeline and the graph draw on: its background, its
 * text and the accent of what is selected. */
void   chrono_palette_canvas_colors  (gboolean       dark,
                                      GdkRGBA       *background,
                                      GdkRGBA       *text,
                                      GdkRGBA       *accent);

/* The WCAG contrast ratio of two opaque colours, from 1 to 21. */
double chrono_palette_contrast_ratio (const GdkRGBA *a,
                                      const GdkRGBA *b);

G_END_DECLS
