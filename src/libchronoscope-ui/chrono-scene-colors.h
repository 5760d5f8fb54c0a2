/* chrono-scene-colors.h: the colours a timeline scene draws its frame
 * with (the names, the ruler, lines, the selection), light or dark
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gdk/gdk.h>

G_BEGIN_DECLS

typedef struct
{
  GdkRGBA background;
  GdkRGBA header;
  GdkRGBA group;
  GdkRGBA text;
  GdkRGBA dim_text;
  GdkRGBA line;
  GdkRGBA grid;
  GdkRGBA selection;
  GdkRGBA dim;          /* over spans a search did not find */
  GdkRGBA match;        /* around spans it found */
  GdkRGBA current;      /* behind the name of the current track */
} ChronoSceneColors;

void chrono_scene_colors_init (ChronoSceneColors *colors,
                               gboolean           dark);

G_END_DECLS
