/* test-palette.c: stable, distinct and readable colours
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <stdio.h>

#include "chrono-palette.h"

#define N_NAMES 2000

static double
distance (const GdkRGBA *a,
          const GdkRGBA *b)
{
  return sqrt ((a->red - b->red) * (a->red - b->red)
               + (a->green - b->green) * (a->green - b->green)
               + (a->blue - b->blue) * (a->blue - b->blue));
}

static void
assert_color (const GdkRGBA *color,
              double         red,
              double         green,
              double         blue)
{
  g_assert_cmpfloat_with_epsilon (color->red, red, 1e-5);
  g_assert_cmpfloat_with_epsilon (color->green, green, 1e-5);
  g_assert_cmpfloat_with_epsilon (color->blue, blue, 1e-5);
  g_assert_cmpfloat (color->alpha, ==, 1);
}

/* The same name gets the same colour on every run and every machine:
 * these were computed once and must never change. */
static void
test_stable (void)
{
  GdkRGBA color;

  chrono_palette_span_color (CHRONO_KIND_HOST_OP, "aten::mm", FALSE, &color);
  assert_color (&color, 0.532932, 0.653707, 0.890441);
  chrono_palette_span_color (CHRONO_KIND_KERNEL, "ampere_sgemm_128x64_tn", FALSE, &color);
  assert_color (&color, 0.531081, 0.808706, 0.426118);
  chrono_palette_span_color (CHRONO_KIND_HOST_OP, "aten::mm", TRUE, &color);
  assert_color (&color, 0.133641, 0.280963, 0.569732);
  chrono_palette_span_color (CHRONO_KIND_KERNEL, "ampere_sgemm_128x64_tn", TRUE, &color);
  assert_color (&color, 0.238044, 0.461118, 0.153706);
}

/* Whatever the names, two kinds never share a colour, nor do a span and
 * a merged block; names of one kind get many colours. */
static void
test_distinct (void)
{
  for (int dark = 0; dark < 2; dark++)
    {
      GdkRGBA merged[CHRONO_N_KINDS];
      double closest = G_MAXDOUBLE;

      for (guint k = 0; k < CHRONO_N_KINDS; k++)
        chrono_palette_merged_color (k, dark, &merged[k]);
      for (guint a = 0; a < CHRONO_N_KINDS; a++)
        for (guint b = a + 1; b < CHRONO_N_KINDS; b++)
          g_assert_cmpfloat (distance (&merged[a], &merged[b]), >, 0.02);

      for (guint n = 0; n < N_NAMES; n++)
        {
          g_autofree char *name = g_strdup_printf ("op_%u", n);
          GdkRGBA colors[CHRONO_N_KINDS];

          for (guint k = 0; k < CHRONO_N_KINDS; k++)
            {
              chrono_palette_span_color (k, name, dark, &colors[k]);
              g_assert_cmpfloat (distance (&colors[k], &merged[k]), >, 0.02);
            }
          for (guint a = 0; a < CHRONO_N_KINDS; a++)
            for (guint b = a + 1; b < CHRONO_N_KINDS; b++)
              closest = MIN (closest, distance (&colors[a], &colors[b]));
        }
      g_test_message ("closest colours of two kinds for one name (%s): %.3f",
                      dark ? "dark" : "light", closest);
      g_assert_cmpfloat (closest, >, 0.05);
    }

  /* A kind's family is wide enough to tell neighbours apart. */
  {
    g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

    for (guint n = 0; n < 200; n++)
      {
        g_autofree char *name = g_strdup_printf ("kernel_%u", n);
        GdkRGBA color;

        chrono_palette_span_color (CHRONO_KIND_KERNEL, name, FALSE, &color);
        g_hash_table_add (seen, g_strdup_printf ("%.3f %.3f %.3f", color.red, color.green, color.blue));
      }
    g_assert_cmpuint (g_hash_table_size (seen), >, 150);
  }
}

/* Labels read at WCAG AA (4.5:1) on every fill, in both themes. */
static void
test_text_contrast (void)
{
  for (int dark = 0; dark < 2; dark++)
    for (guint k = 0; k < CHRONO_N_KINDS; k++)
      {
        double worst = G_MAXDOUBLE;
        GdkRGBA fill, text;

        chrono_palette_merged_color (k, dark, &fill);
        chrono_palette_text_color (&fill, &text);
        worst = chrono_palette_contrast_ratio (&fill, &text);
        for (guint n = 0; n < N_NAMES; n++)
          {
            g_autofree char *name = g_strdup_printf ("op_%u", n);

            chrono_palette_span_color (k, name, dark, &fill);
            chrono_palette_text_color (&fill, &text);
            worst = MIN (worst, chrono_palette_contrast_ratio (&fill, &text));
          }
        g_assert_cmpfloat (worst, >=, 4.5);
      }
}

static void
test_contrast_ratio (void)
{
  GdkRGBA black = { 0, 0, 0, 1 }, white = { 1, 1, 1, 1 }, text;

  g_assert_cmpfloat_with_epsilon (chrono_palette_contrast_ratio (&black, &white), 21, 1e-9);
  g_assert_cmpfloat_with_epsilon (chrono_palette_contrast_ratio (&white, &white), 1, 1e-9);
  chrono_palette_text_color (&white, &text);
  g_assert_cmpfloat (text.red, <, 0.5);
  chrono_palette_text_color (&black, &text);
  g_assert_cmpfloat (text.red, >, 0.5);
}

/* The two themes differ; instants and series have colours of their own. */
static void
test_themes (void)
{
  GdkRGBA light, dark;

  chrono_palette_span_color (CHRONO_KIND_KERNEL, "k", FALSE, &light);
  chrono_palette_span_color (CHRONO_KIND_KERNEL, "k", TRUE, &dark);
  g_assert_cmpfloat (distance (&light, &dark), >, 0.1);
  chrono_palette_instant_color (FALSE, &light);
  chrono_palette_instant_color (TRUE, &dark);
  g_assert_cmpfloat (distance (&light, &dark), >, 0.1);
  chrono_palette_series_color ("GPU Utilization", FALSE, &light);
  chrono_palette_series_color ("GPU Memory", FALSE, &dark);
  g_assert_cmpfloat (distance (&light, &dark), >, 0.01);
}

/* On the canvas of either theme, text reads (WCAG AA) and the accent
 * stands out (3:1, for graphics). */
static void
test_canvas (void)
{
  for (int dark = 0; dark <= 1; dark++)
    {
      GdkRGBA background, text, accent, blended;

      chrono_palette_canvas_colors (dark, &background, &text, &accent);
      g_assert_cmpfloat (background.alpha, ==, 1);
      /* The text is translucent: what shows is its blend with the canvas. */
      blended = (GdkRGBA) {
        text.red * text.alpha + background.red * (1 - text.alpha),
        text.green * text.alpha + background.green * (1 - text.alpha),
        text.blue * text.alpha + background.blue * (1 - text.alpha),
        1,
      };
      g_assert_cmpfloat (chrono_palette_contrast_ratio (&blended, &background), >=, 4.5);
      g_assert_cmpfloat (chrono_palette_contrast_ratio (&accent, &background), >=, 3);
    }
}

/* The three idle shades of the Devices legend differ from each other and
 * from the background by lightness alone, in both themes: by a contrast
 * ratio of at least 1.5, which holds whatever the reader's colour vision,
 * since greys have no hue to lose. */
static void
test_idle_shades (void)
{
  for (int dark = 0; dark <= 1; dark++)
    {
      GdkRGBA background, text, accent, shades[3];

      chrono_palette_canvas_colors (dark, &background, &text, &accent);
      for (guint i = 0; i < 3; i++)
        {
          chrono_palette_idle_color (i, dark, &shades[i]);
          g_assert_cmpfloat (shades[i].alpha, ==, 1);
          g_assert_cmpfloat (shades[i].red, ==, shades[i].green);
          g_assert_cmpfloat (shades[i].green, ==, shades[i].blue);
          g_assert_cmpfloat (chrono_palette_contrast_ratio (&shades[i], &background), >=, 1.5);
        }
      for (guint i = 0; i < 3; i++)
        for (guint j = i + 1; j < 3; j++)
          {
            g_test_message ("%s theme: shades %u and %u: %.2f", dark ? "dark" : "light", i, j,
                            chrono_palette_contrast_ratio (&shades[i], &shades[j]));
            g_assert_cmpfloat (chrono_palette_contrast_ratio (&shades[i], &shades[j]), >=, 1.5);
          }
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/palette/stable", test_stable);
  g_test_add_func ("/palette/idle-shades", test_idle_shades);
  g_test_add_func ("/palette/distinct", test_distinct);
  g_test_add_func ("/palette/text-contrast", test_text_contrast);
  g_test_add_func ("/palette/contrast-ratio", test_contrast_ratio);
  g_test_add_func ("/palette/themes", test_themes);
  g_test_add_func ("/palette/canvas", test_canvas);

  return g_test_run ();
}
