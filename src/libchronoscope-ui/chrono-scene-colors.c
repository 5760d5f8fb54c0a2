/* chrono-scene-colors.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "chrono-palette.h"
#include "chrono-scene-colors.h"

void
chrono_scene_colors_init (ChronoSceneColors *colors,
                          gboolean           dark)
{
  chrono_palette_canvas_colors (dark, &colors->background, &colors->text, &colors->selection);
  if (dark)
    {
      colors->header = (GdkRGBA) { 0.16, 0.16, 0.16, 1.0 };
      colors->group = (GdkRGBA) { 0.21, 0.21, 0.22, 1.0 };
      colors->dim_text = (GdkRGBA) { 1.0, 1.0, 1.0, 0.6 };
      colors->line = (GdkRGBA) { 1.0, 1.0, 1.0, 0.15 };
      colors->grid = (GdkRGBA) { 1.0, 1.0, 1.0, 0.07 };
      colors->dim = (GdkRGBA) { 0.12, 0.12, 0.12, 0.75 };
      colors->match = (GdkRGBA) { 1.0, 1.0, 1.0, 0.9 };
      colors->current = (GdkRGBA) { 0.47, 0.68, 0.93, 0.25 };
    }
  else
    {
      colors->header = (GdkRGBA) { 0.96, 0.96, 0.95, 1.0 };
      colors->group = (GdkRGBA) { 0.91, 0.91, 0.92, 1.0 };
      colors->dim_text = (GdkRGBA) { 0.0, 0.0, 0.0, 0.6 };
      colors->line = (GdkRGBA) { 0.0, 0.0, 0.0, 0.15 };
      colors->grid = (GdkRGBA) { 0.0, 0.0, 0.0, 0.07 };
      colors->dim = (GdkRGBA) { 1.0, 1.0, 1.0, 0.75 };
      colors->match = (GdkRGBA) { 0.0, 0.0, 0.0, 0.8 };
      colors->current = (GdkRGBA) { 0.11, 0.44, 0.85, 0.15 };
    }
}
