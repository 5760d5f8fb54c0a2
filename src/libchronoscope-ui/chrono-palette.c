/* chrono-palette.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>

#include "chrono-palette.h"

typedef struct {
  float hue;          /* degrees */
  float spread;       /* names pick a hue within hue ± spread */
  float saturation;
  float light;        /* lightness on a light theme */
  float dark;         /* lightness on a dark theme */
} Family;

/* Hue ranges of saturated families do not overlap, so kinds stay apart
 * whatever their names; greyish families differ in saturation instead,
 * and OTHER (traces without known categories) takes every hue, paler.
 * Light themes get light fills under black text, dark themes mostly
 * darker fills under white text; every fill keeps its text at 4.5:1. */
static const Family families[CHRONO_N_KINDS] = {
  [CHRONO_KIND_OTHER]          = { 180, 180, 0.30f, 0.82f, 0.27f },
  [CHRONO_KIND_HOST_OP]        = { 212,  14, 0.62f, 0.72f, 0.36f },
  [CHRONO_KIND_PYTHON]         = { 178,  10, 0.45f, 0.68f, 0.30f },
  [CHRONO_KIND_ANNOTATION]     = { 270,   8, 0.45f, 0.76f, 0.42f },
  [CHRONO_KIND_STEP]           = { 220,   4, 0.15f, 0.64f, 0.40f },
  [CHRONO_KIND_RUNTIME]        = {  36,   6, 0.85f, 0.64f, 0.48f },
  [CHRONO_KIND_DRIVER]         = {  20,   5, 0.70f, 0.60f, 0.38f },
  [CHRONO_KIND_KERNEL]         = { 120,  22, 0.50f, 0.60f, 0.29f },
  [CHRONO_KIND_MEMCPY]         = { 322,  10, 0.60f, 0.70f, 0.40f },
  [CHRONO_KIND_MEMSET]         = { 345,   5, 0.55f, 0.74f, 0.44f },
  [CHRONO_KIND_SYNC]           = {   0,   5, 0.75f, 0.67f, 0.40f },
  [CHRONO_KIND_COLLECTIVE]     = {  55,   5, 0.90f, 0.56f, 0.46f },
  [CHRONO_KIND_GPU_ANNOTATION] = { 292,   6, 0.45f, 0.66f, 0.38f },
  [CHRONO_KIND_ASYNC]          = { 245,   8, 0.50f, 0.74f, 0.44f },
  [CHRONO_KIND_OVERHEAD]       = {  30,   5, 0.12f, 0.60f, 0.40f },
  [CHRONO_KIND_TRACE]          = {   0,   0, 0.00f, 0.84f, 0.28f },
  [CHRONO_KIND_INSTRUCTION]    = { 152,   8, 0.55f, 0.66f, 0.27f },
  [CHRONO_KIND_DMA]            = { 304,   5, 0.55f, 0.72f, 0.40f },
};

/* FNV-1a: fixed, unlike a hash table's hash, so colours never change
 * between runs or releases. */
static guint32
hash_name (const char *name)
{
  guint32 h = 2166136261u;

  for (const guchar *p = (const guchar *) (name ? name : ""); *p; p++)
    {
      h ^= *p;
      h *= 16777619u;
    }
  return h;
}

static float
hue_to_channel (float p,
                float q,
                float t)
{
  if (t < 0)
    t += 1;
  if (t > 1)
    t -= 1;
  if (t < 1.0f / 6)
    return p + (q - p) * 6 * t;
  if (t < 0.5f)
    return q;
  if (t < 2.0f / 3)
    return p + (q - p) * (2.0f / 3 - t) * 6;
  return p;
}

static void
hsl_to_rgba (float    hue,
             float    saturation,
             float    lightness,
             GdkRGBA *color)
{
  float h = fmodf (hue, 360.0f) / 360.0f;
  float q, p;

  if (h < 0)
    h += 1;
  q = lightness < 0.5f ? lightness * (1 + saturation)
                       : lightness + saturation - lightness * saturation;
  p = 2 * lightness - q;
  color->red = hue_to_channel (p, q, h + 1.0f / 3);
  color->green = hue_to_channel (p, q, h);
  color->blue = hue_to_channel (p, q, h - 1.0f / 3);
  color->alpha = 1;
}

static const Family *
family_for (ChronoKind kind)
{
  return &families[(guint) kind < CHRONO_N_KINDS ? kind : CHRONO_KIND_OTHER];
}

void
chrono_palette_span_color (ChronoKind  kind,
                           const char *name,
                           gboolean    dark,
                           GdkRGBA    *color)
{
  const Family *f = family_for (kind);
  guint32 h = hash_name (name);
  float hue_pick = (h & 0xffff) / 65535.0f * 2 - 1;
  float light_pick = ((h >> 16) & 0xff) / 255.0f * 2 - 1;

  /* Lightness moves a little too, so neighbours of close hue differ. */
  hsl_to_rgba (f->hue + f->spread * hue_pick,
               f->saturation,
               (dark ? f->dark : f->light) + 0.04f * light_pick,
               color);
}

void
chrono_palette_merged_color (ChronoKind  kind,
                             gboolean    dark,
                             GdkRGBA    *color)
{
  const Family *f = family_for (kind);

  /* Washed out: a block of many spans must not pass for one of them. */
  hsl_to_rgba (f->hue, f->saturation * 0.45f, dark ? f->dark + 0.06f : f->light - 0.08f, color);
}

static double
linear_channel (double c)
{
  return c <= 0.04045 ? c / 12.92 : pow ((c + 0.055) / 1.055, 2.4);
}

static double
relative_luminance (const GdkRGBA *c)
{
  return 0.2126 * linear_channel (c->red)
       + 0.7152 * linear_channel (c->green)
       + 0.0722 * linear_channel (c->blue);
}

double
chrono_palette_contrast_ratio (const GdkRGBA *a,
                               const GdkRGBA *b)
{
  double la = relative_luminance (a);
  double lb = relative_luminance (b);

  return (MAX (la, lb) + 0.05) / (MIN (la, lb) + 0.05);
}

void
chrono_palette_text_color (const GdkRGBA *background,
                           GdkRGBA       *color)
{
  static const GdkRGBA black = { 0.08f, 0.08f, 0.10f, 1 };
  static const GdkRGBA white = { 1, 1, 1, 1 };

  if (chrono_palette_contrast_ratio (background, &black) >=
      chrono_palette_contrast_ratio (background, &white))
    *color = black;
  else
    *color = white;
}

void
chrono_palette_idle_color (guint     shade,
                           gboolean  dark,
                           GdkRGBA  *color)
{
  /* Dark to light on the light theme's white, light to dark on the dark
   * theme's grey: the first stands out most. */
  static const float light_theme[] = { 0.30f, 0.55f, 0.78f };
  static const float dark_theme[] = { 0.85f, 0.58f, 0.36f };
  float grey;

  g_return_if_fail (shade < G_N_ELEMENTS (light_theme));
  grey = dark ? dark_theme[shade] : light_theme[shade];
  *color = (GdkRGBA) { grey, grey, grey, 1 };
}

void
chrono_palette_instant_color (gboolean  dark,
                              GdkRGBA  *color)
{
  /* GNOME orange 4 and 2. */
  static const GdkRGBA light_theme = { 0.902f, 0.380f, 0.000f, 1 };
  static const GdkRGBA dark_theme = { 1.000f, 0.639f, 0.282f, 1 };

  *color = dark ? dark_theme : light_theme;
}

void
chrono_palette_canvas_colors (gboolean  dark,
                              GdkRGBA  *background,
                              GdkRGBA  *text,
                              GdkRGBA  *accent)
{
  if (dark)
    {
      *background = (GdkRGBA) { 0.12, 0.12, 0.12, 1.0 };
      *text = (GdkRGBA) { 1.0, 1.0, 1.0, 0.9 };
      *accent = (GdkRGBA) { 0.47, 0.68, 0.93, 1.0 };
    }
  else
    {
      *background = (GdkRGBA) { 1.0, 1.0, 1.0, 1.0 };
      *text = (GdkRGBA) { 0.0, 0.0, 0.0, 0.85 };
      *accent = (GdkRGBA) { 0.11, 0.44, 0.85, 1.0 };
    }
}

void
chrono_palette_series_color (const char *name,
                             gboolean    dark,
                             GdkRGBA    *color)
{
  guint32 h = hash_name (name);

  hsl_to_rgba ((h & 0xffff) / 65535.0f * 360, 0.60f, dark ? 0.62f : 0.45f, color);
}

void
chrono_palette_series_fill_color (const char *name,
                                  gboolean    dark,
                                  GdkRGBA    *color)
{
  /* The timeline's backgrounds. */
  float background = dark ? 0.12f : 1.0f;
  float keep = dark ? 0.45f : 0.35f;

  chrono_palette_series_color (name, dark, color);
  color->red = keep * color->red + (1 - keep) * background;
  color->green = keep * color->green + (1 - keep) * background;
  color->blue = keep * color->blue + (1 - keep) * background;
}

void
chrono_palette_flow_color (ChronoFlowType type,
                           gboolean       dark,
                           GdkRGBA       *color)
{
  /* Crimson for launches (between the orange runtime and green kernel
   * families), violet for flow events, teal for bound flows, blue for
   * instruction dependencies, amber for semaphore waits. */
  static const GdkRGBA light_theme[CHRONO_N_FLOW_TYPES] = {
    [CHRONO_FLOW_V1] = { 0.420f, 0.160f, 0.780f, 1 },
    [CHRONO_FLOW_V2] = { 0.000f, 0.440f, 0.480f, 1 },
    [CHRONO_FLOW_LAUNCH] = { 0.780f, 0.050f, 0.250f, 1 },
    [CHRONO_FLOW_DEPENDENCY] = { 0.100f, 0.330f, 0.780f, 1 },
    [CHRONO_FLOW_SEMAPHORE] = { 0.640f, 0.400f, 0.000f, 1 },
  };
  static const GdkRGBA dark_theme[CHRONO_N_FLOW_TYPES] = {
    [CHRONO_FLOW_V1] = { 0.780f, 0.650f, 1.000f, 1 },
    [CHRONO_FLOW_V2] = { 0.360f, 0.880f, 0.880f, 1 },
    [CHRONO_FLOW_LAUNCH] = { 1.000f, 0.470f, 0.600f, 1 },
    [CHRONO_FLOW_DEPENDENCY] = { 0.560f, 0.740f, 1.000f, 1 },
    [CHRONO_FLOW_SEMAPHORE] = { 1.000f, 0.780f, 0.350f, 1 },
  };

  g_return_if_fail ((guint) type < G_N_ELEMENTS (light_theme));
  *color = dark ? dark_theme[type] : light_theme[type];
}
