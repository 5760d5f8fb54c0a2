/* chrono-text-layout.h: text set as the trace wrote it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <pango/pango.h>

G_BEGIN_DECLS

/* Turns LAYOUT's ligatures off, its other attributes kept: names of
 * spans, tracks and operators ("ProfilerStep", "fill_") are identifiers,
 * and a PDF or SVG that sets "fi" as one glyph cannot be searched or
 * copied for them in some readers. */
void chrono_text_layout_disable_ligatures (PangoLayout *layout);

G_END_DECLS
