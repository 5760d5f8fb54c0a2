/* chrono-diff-flame-painter.c: a comparison's tree as a differential
 * flame graph (icicles), drawn with cairo and without a display
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "chrono-diff-flame-painter.h"
#include "chrono-format.h"
#include "chrono-palette.h"
#include "chrono-scene-colors.h"
#include "chrono-text-layout.h"
#include "chrono-timeline-scene.h"

/* A change of this share of A's time or more takes the strongest colour. */
#define FULL_CHANGE_PERCENT 50.0
#define LABEL_PAD 4.0
#define MIN_LABEL_WIDTH 32.0
#define LEGEND_SWATCH 14.0

struct _ChronoDiffFlamePainter
{
  GObject parent_instance;

  ChronoComparisonTree  *tree;
  const ChronoFlameNode *focus;
  const ChronoFlameNode *selected;
  const ChronoFlameNode *hover;
  gboolean      dark;
  PangoContext *pango_context;

  GArray  *frames;               /* ChronoDiffFlameFrame */
  double   frames_width;         /* what they were laid out at, < 0 when stale */
  guint    n_rows;
};

G_DEFINE_FINAL_TYPE (ChronoDiffFlamePainter, chrono_diff_flame_painter, G_TYPE_OBJECT)

static void
chrono_diff_flame_painter_finalize (GObject *object)
{
  ChronoDiffFlamePainter *self = CHRONO_DIFF_FLAME_PAINTER (object);

  g_clear_object (&self->tree);
  g_clear_object (&self->pango_context);
  g_array_unref (self->frames);
  G_OBJECT_CLASS (chrono_diff_flame_painter_parent_class)->finalize (object);
}

static void
chrono_diff_flame_painter_class_init (ChronoDiffFlamePainterClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = chrono_diff_flame_painter_finalize;
}

static void
chrono_diff_flame_painter_init (ChronoDiffFlamePainter *self)
{
  PangoContext *context = pango_font_map_create_context (pango_cairo_font_map_get_default ());
  g_autoptr(PangoFontDescription) font = pango_font_description_from_string (CHRONO_SCENE_DEFAULT_FONT);

  pango_cairo_context_set_resolution (context, 96);
  pango_context_set_font_description (context, font);
  self->pango_context = context;
  self->frames = g_array_new (FALSE, FALSE, sizeof (ChronoDiffFlameFrame));
  self->frames_width = -1;
}

ChronoDiffFlamePainter *
chrono_diff_flame_painter_new (void)
{
  return g_object_new (CHRONO_TYPE_DIFF_FLAME_PAINTER, NULL);
}

static void
invalidate (ChronoDiffFlamePainter *self)
{
  self->frames_width = -1;
}

void
chrono_diff_flame_painter_set_tree (ChronoDiffFlamePainter *self,
                                    ChronoComparisonTree   *tree)
{
  g_return_if_fail (CHRONO_IS_DIFF_FLAME_PAINTER (self));
  g_return_if_fail (tree == NULL || CHRONO_IS_COMPARISON_TREE (tree));

  if (!g_set_object (&self->tree, tree))
    return;
  self->focus = self->selected = self->hover = NULL;
  invalidate (self);
}

ChronoComparisonTree *
chrono_diff_flame_painter_get_tree (ChronoDiffFlamePainter *self)
{
  g_return_val_if_fail (CHRONO_IS_DIFF_FLAME_PAINTER (self), NULL);
  return self->tree;
}

void
chrono_diff_flame_painter_set_focus (ChronoDiffFlamePainter *self,
                                     const ChronoFlameNode  *node)
{
  g_return_if_fail (CHRONO_IS_DIFF_FLAME_PAINTER (self));

  if (self->tree && node == chrono_comparison_tree_get_root (self->tree))
    node = NULL;
  if (self->focus == node)
    return;
  self->focus = node;
  invalidate (self);
}

const ChronoFlameNode *
chrono_diff_flame_painter_get_focus (ChronoDiffFlamePainter *self)
{
  g_return_val_if_fail (CHRONO_IS_DIFF_FLAME_PAINTER (self), NULL);
  if (self->focus == NULL && self->tree)
    return chrono_comparison_tree_get_root (self->tree);
  return self->focus;
}

void
chrono_diff_flame_painter_set_selected (ChronoDiffFlamePainter *self,
                                        const ChronoFlameNode  *node)
{
  g_return_if_fail (CHRONO_IS_DIFF_FLAME_PAINTER (self));
  self->selected = node;
}

void
chrono_diff_flame_painter_set_hover (ChronoDiffFlamePainter *self,
                                     const ChronoFlameNode  *node)
{
  g_return_if_fail (CHRONO_IS_DIFF_FLAME_PAINTER (self));
  self->hover = node;
}

void
chrono_diff_flame_painter_set_dark (ChronoDiffFlamePainter *self,
                                    gboolean                dark)
{
  g_return_if_fail (CHRONO_IS_DIFF_FLAME_PAINTER (self));
  self->dark = !!dark;
}

void
chrono_diff_flame_painter_set_pango_context (ChronoDiffFlamePainter *self,
                                             PangoContext           *context)
{
  g_return_if_fail (CHRONO_IS_DIFF_FLAME_PAINTER (self));
  g_return_if_fail (PANGO_IS_CONTEXT (context));
  g_set_object (&self->pango_context, context);
}

/* ------------------------------------------------------------------ */
/* Layout                                                             */

static void
lay_out_children (ChronoDiffFlamePainter *self,
                  const ChronoFlameNode  *node,
                  double                  x,
                  double                  width,
                  guint                   row)
{
  /* Children add up to their parent; rounding aside, never past it. */
  double total = 0;

  for (guint i = 0; i < node->n_children; i++)
    total += node->children[i]->b.ns_per_step;
  total = MAX (total, node->b.ns_per_step);
  if (total <= 0)
    return;
  for (guint i = 0; i < node->n_children; i++)
    {
      const ChronoFlameNode *c = node->children[i];
      double w = width * c->b.ns_per_step / total;

      if (w >= CHRONO_DIFF_FLAME_MIN_WIDTH)
        {
          ChronoDiffFlameFrame f = { c, x, w, row };

          g_array_append_val (self->frames, f);
          self->n_rows = MAX (self->n_rows, row + 1);
          lay_out_children (self, c, x, w, row + 1);
        }
      x += w;
    }
}

const ChronoDiffFlameFrame *
chrono_diff_flame_painter_layout (ChronoDiffFlamePainter *self,
                                  double                  width,
                                  guint                  *n_frames)
{
  g_autoptr(GPtrArray) above = g_ptr_array_new ();
  const ChronoFlameNode *focus;

  g_return_val_if_fail (CHRONO_IS_DIFF_FLAME_PAINTER (self), NULL);

  if (self->frames_width != width)
    {
      g_array_set_size (self->frames, 0);
      self->n_rows = 0;
      if (self->tree)
        {
          focus = chrono_diff_flame_painter_get_focus (self);
          for (const ChronoFlameNode *n = focus; n; n = n->parent)
            g_ptr_array_insert (above, 0, (gpointer) n);
          /* The focus and its ancestors across the whole width. */
          for (guint i = 0; i < above->len; i++)
            {
              ChronoDiffFlameFrame f = { above->pdata[i], 0, width, i };

              g_array_append_val (self->frames, f);
            }
          self->n_rows = above->len;
          lay_out_children (self, focus, 0, width, above->len);
        }
      self->frames_width = width;
    }
  if (n_frames)
    *n_frames = self->frames->len;
  return (const ChronoDiffFlameFrame *) self->frames->data;
}

double
chrono_diff_flame_painter_get_height (ChronoDiffFlamePainter *self,
                                      double                  width)
{
  g_return_val_if_fail (CHRONO_IS_DIFF_FLAME_PAINTER (self), 0);
  chrono_diff_flame_painter_layout (self, width, NULL);
  return MAX (self->n_rows, 1) * CHRONO_DIFF_FLAME_ROW_HEIGHT;
}

const ChronoDiffFlameFrame *
chrono_diff_flame_painter_frame_at (ChronoDiffFlamePainter *self,
                                    double                  width,
                                    double                  x,
                                    double                  y)
{
  guint n;
  const ChronoDiffFlameFrame *frames = chrono_diff_flame_painter_layout (self, width, &n);
  guint row;

  if (y < 0 || x < 0 || x >= width)
    return NULL;
  row = (guint) (y / CHRONO_DIFF_FLAME_ROW_HEIGHT);
  for (guint i = 0; i < n; i++)
    if (frames[i].row == row && x >= frames[i].x && x < frames[i].x + frames[i].width)
      return &frames[i];
  return NULL;
}

/* ------------------------------------------------------------------ */
/* Colours and words                                                  */

static void
mix (const GdkRGBA *from,
     const GdkRGBA *to,
     double         t,
     GdkRGBA       *out)
{
  out->red = from->red + (to->red - from->red) * t;
  out->green = from->green + (to->green - from->green) * t;
  out->blue = from->blue + (to->blue - from->blue) * t;
  out->alpha = 1;
}

void
chrono_diff_flame_node_color (const ChronoFlameNode *node,
                              gboolean               dark,
                              GdkRGBA               *color)
{
  /* A diverging scale whose ends differ in hue and whose strength is also
   * lightness: red and blue stay apart for red-green colour blindness,
   * and the grey middle reads on either background. */
  static const GdkRGBA light[3] = {
    { 0.70, 0.09, 0.17, 1 },     /* slower */
    { 0.84, 0.84, 0.83, 1 },     /* within the noise */
    { 0.13, 0.40, 0.67, 1 },     /* faster */
  };
  static const GdkRGBA dark_ends[3] = {
    { 0.96, 0.50, 0.45, 1 },
    { 0.36, 0.36, 0.38, 1 },
    { 0.45, 0.68, 0.96, 1 },
  };
  const GdkRGBA *ramp = dark ? dark_ends : light;
  double t;

  if (node->kind == CHRONO_FLAME_REST || node->delta_ns == 0 ||
      node->noise == CHRONO_COMPARE_NOISE_WITHIN)
    {
      *color = ramp[1];
      return;
    }
  /* Only in B: new work, as slow as it gets. */
  t = isnan (node->delta_percent) ? 1.0 : MIN (fabs (node->delta_percent) / FULL_CHANGE_PERCENT, 1.0);
  /* Even a small change beyond the noise is told from grey. */
  t = 0.35 + 0.65 * t;
  /* With the noise unknown (one step) the colour stays pale. */
  if (node->noise == CHRONO_COMPARE_NOISE_UNKNOWN)
    t *= 0.5;
  mix (&ramp[1], &ramp[node->delta_ns > 0 ? 0 : 2], t, color);
}

/* No change reads "±0 ns" in a frame's description. */
static char *
format_delta (gdouble ns)
{
  g_autofree char *zero = NULL;

  if (ns != 0)
    return chrono_format_duration_change (ns);
  zero = chrono_format_duration (0);
  return g_strdup_printf ("±%s", zero);
}

/* Operators are named by their key: the name, then the shapes. */
static const char *
kind_word (const ChronoFlameNode *node)
{
  switch (node->kind)
    {
    case CHRONO_FLAME_STEP: return _("Step (its wall time, or its device work where that is more)");
    case CHRONO_FLAME_MODULE: return _("Module");
    case CHRONO_FLAME_OPERATOR: return _("Operator");
    case CHRONO_FLAME_KERNEL: return _("Kernel");
    case CHRONO_FLAME_REST: return _("No device work");
    default: g_return_val_if_reached ("");
    }
}

char *
chrono_diff_flame_node_describe (const ChronoFlameNode *node)
{
  g_autofree char *b = chrono_format_duration (llround (node->b.ns_per_step));
  g_autofree char *a = chrono_format_duration (llround (node->a.ns_per_step));
  g_autofree char *delta = format_delta (node->delta_ns);
  g_autofree char *percent = isnan (node->delta_percent) ? g_strdup (_("new in B"))
                             : g_strdup_printf ("%s%.1f%%", node->delta_percent > 0 ? "+" : node->delta_percent < 0 ? "−" : "±",
                                                fabs (node->delta_percent));
  const char *noise = node->noise == CHRONO_COMPARE_NOISE_BEYOND ? _("beyond the noise")
                      : node->noise == CHRONO_COMPARE_NOISE_WITHIN ? _("within noise") : _("noise unknown (one step)");
  GString *s = g_string_new (NULL);

  if (node->kind == CHRONO_FLAME_STEP || node->kind == CHRONO_FLAME_REST)
    g_string_append_printf (s, "%s\n", kind_word (node));
  else
    g_string_append_printf (s, "%s: %s\n", kind_word (node), node->name);
  if (node->a_name)
    g_string_append_printf (s, _("A runs %s\n"), node->a_name);
  if (node->match == CHRONO_COMPARE_MATCH_NONE)
    g_string_append (s, node->b.count > 0 ? _("Only in B\n") : _("Only in A\n"));
  g_string_append_printf (s, _("B %s, A %s per step\nΔ %s (%s), %s"), b, a, delta, percent, noise);
  return g_string_free (s, FALSE);
}

/* ------------------------------------------------------------------ */
/* Drawing                                                            */

static void
set_source (cairo_t       *cr,
            const GdkRGBA *c)
{
  cairo_set_source_rgba (cr, c->red, c->green, c->blue, c->alpha);
}

static PangoLayout *
new_layout (ChronoDiffFlamePainter *self,
            const char             *text)
{
  PangoLayout *layout = pango_layout_new (self->pango_context);

  chrono_text_layout_disable_ligatures (layout);
  pango_layout_set_text (layout, text, -1);
  pango_layout_set_single_paragraph_mode (layout, TRUE);
  return layout;
}

/* The name in a frame: operators without their shapes, which the
 * tooltip has. */
static char *
frame_name (ChronoDiffFlamePainter *self,
            const ChronoFlameNode  *node)
{
  const char *shapes;

  /* The step says its wall time, which its frames can exceed where
   * streams run at once. */
  if (node->kind == CHRONO_FLAME_STEP)
    {
      g_autofree char *b = chrono_format_duration (llround (chrono_comparison_tree_get_step_ns (self->tree, CHRONO_COMPARE_SIDE_B)));
      g_autofree char *a = chrono_format_duration (llround (chrono_comparison_tree_get_step_ns (self->tree, CHRONO_COMPARE_SIDE_A)));

      return g_strdup_printf (_("Step  B %s, A %s"), b, a);
    }
  if (node->kind == CHRONO_FLAME_REST)
    {
      g_autofree char *b = chrono_format_duration (llround (node->b.ns_per_step));

      return g_strdup_printf ("%s  %s", kind_word (node), b);
    }
  if (node->kind == CHRONO_FLAME_OPERATOR && (shapes = strstr (node->name, " [")) != NULL)
    return g_strndup (node->name, shapes - node->name);
  return g_strdup (node->name);
}

/* The change in a frame, right-aligned: only what is beyond the noise. */
static char *
frame_change (ChronoDiffFlamePainter *self,
              const ChronoFlameNode  *node)
{
  if (node->match == CHRONO_COMPARE_MATCH_NONE && node->b.count > 0)
    return g_strdup (_("only in B"));
  if (node->kind == CHRONO_FLAME_STEP)
    return format_delta (chrono_comparison_tree_get_step_ns (self->tree, CHRONO_COMPARE_SIDE_B) -
                         chrono_comparison_tree_get_step_ns (self->tree, CHRONO_COMPARE_SIDE_A));
  if (node->noise != CHRONO_COMPARE_NOISE_BEYOND || node->kind == CHRONO_FLAME_REST)
    return NULL;
  if (isnan (node->delta_percent))
    return format_delta (node->delta_ns);
  return g_strdup_printf ("%s%.0f%%", node->delta_percent > 0 ? "+" : "−", fabs (node->delta_percent));
}

static void
draw_label (ChronoDiffFlamePainter *self,
            cairo_t                *cr,
            double                  x,
            double                  y,
            double                  w,
            const ChronoFlameNode  *node)
{
  g_autofree char *name = frame_name (self, node);
  g_autofree char *change = frame_change (self, node);
  g_autoptr(PangoLayout) layout = new_layout (self, name);
  double room = w - 2 * LABEL_PAD;
  int text_h, change_w = 0;

  if (change)
    {
      g_autoptr(PangoLayout) right = new_layout (self, change);

      pango_layout_get_pixel_size (right, &change_w, &text_h);
      /* The change goes first when there is room for it and a few
       * letters of the name. */
      if (change_w + 4 * LABEL_PAD + MIN_LABEL_WIDTH <= room)
        {
          cairo_move_to (cr, x + w - LABEL_PAD - change_w, y + (CHRONO_DIFF_FLAME_ROW_HEIGHT - 1 - text_h) / 2);
          pango_cairo_show_layout (cr, right);
          room -= change_w + 2 * LABEL_PAD;
        }
    }
  pango_layout_set_width (layout, (int) (room * PANGO_SCALE));
  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
  pango_layout_get_pixel_size (layout, NULL, &text_h);
  cairo_move_to (cr, x + LABEL_PAD, y + (CHRONO_DIFF_FLAME_ROW_HEIGHT - 1 - text_h) / 2);
  pango_cairo_show_layout (cr, layout);
}

void
chrono_diff_flame_painter_draw (ChronoDiffFlamePainter *self,
                                cairo_t                *cr,
                                double                  width)
{
  ChronoSceneColors colors;
  const ChronoDiffFlameFrame *frames;
  guint n;

  g_return_if_fail (CHRONO_IS_DIFF_FLAME_PAINTER (self));

  chrono_scene_colors_init (&colors, self->dark);
  frames = chrono_diff_flame_painter_layout (self, width, &n);
  cairo_save (cr);
  set_source (cr, &colors.background);
  cairo_rectangle (cr, 0, 0, width, chrono_diff_flame_painter_get_height (self, width));
  cairo_fill (cr);

  for (guint i = 0; i < n; i++)
    {
      const ChronoDiffFlameFrame *f = &frames[i];
      double y = f->row * CHRONO_DIFF_FLAME_ROW_HEIGHT;
      /* A pixel's gap between frames, when they are wide enough to spare it. */
      double w = f->width >= 3 ? f->width - 1 : f->width;
      GdkRGBA fill, text;

      chrono_diff_flame_node_color (f->node, self->dark, &fill);
      set_source (cr, &fill);
      cairo_rectangle (cr, f->x, y, w, CHRONO_DIFF_FLAME_ROW_HEIGHT - 1);
      cairo_fill (cr);
      if (f->node == self->hover || f->node == self->selected)
        {
          set_source (cr, &colors.match);
          cairo_set_line_width (cr, f->node == self->selected ? 2 : 1);
          cairo_rectangle (cr, f->x + 1, y + 1, MAX (w - 2, 0), CHRONO_DIFF_FLAME_ROW_HEIGHT - 3);
          cairo_stroke (cr);
        }
      if (w >= MIN_LABEL_WIDTH)
        {
          chrono_palette_text_color (&fill, &text);
          set_source (cr, &text);
          cairo_save (cr);
          cairo_rectangle (cr, f->x, y, w, CHRONO_DIFF_FLAME_ROW_HEIGHT);
          cairo_clip (cr);
          draw_label (self, cr, f->x, y, w, f->node);
          cairo_restore (cr);
        }
    }
  cairo_restore (cr);
}

/* ------------------------------------------------------------------ */
/* The picture                                                        */

static double
legend_height (void)
{
  return LEGEND_SWATCH + 12;
}

static double
title_height (ChronoDiffFlamePainter *self,
              const char             *title)
{
  g_autoptr(PangoLayout) layout = new_layout (self, title ? title : "");
  int h;

  pango_layout_get_pixel_size (layout, NULL, &h);
  return h + 12;
}

double
chrono_diff_flame_painter_get_picture_height (ChronoDiffFlamePainter *self,
                                              double                  width)
{
  g_return_val_if_fail (CHRONO_IS_DIFF_FLAME_PAINTER (self), 0);
  return title_height (self, "Xg") + legend_height () + chrono_diff_flame_painter_get_height (self, width);
}

/* A swatch of NODE-like colour and its words; returns the next x. */
static double
legend_entry (ChronoDiffFlamePainter *self,
              cairo_t                *cr,
              double                  x,
              double                  y,
              const GdkRGBA          *swatch,
              const GdkRGBA          *text,
              const char             *words)
{
  g_autoptr(PangoLayout) layout = new_layout (self, words);
  int w, h;

  set_source (cr, swatch);
  cairo_rectangle (cr, x, y, LEGEND_SWATCH, LEGEND_SWATCH);
  cairo_fill (cr);
  pango_layout_get_pixel_size (layout, &w, &h);
  set_source (cr, text);
  cairo_move_to (cr, x + LEGEND_SWATCH + 4, y + (LEGEND_SWATCH - h) / 2);
  pango_cairo_show_layout (cr, layout);
  return x + LEGEND_SWATCH + 4 + w + 16;
}

void
chrono_diff_flame_painter_draw_picture (ChronoDiffFlamePainter *self,
                                        cairo_t                *cr,
                                        double                  width,
                                        const char             *title)
{
  ChronoSceneColors colors;
  double top, x;
  g_autoptr(PangoLayout) layout = NULL;
  /* Stand-ins for the legend: nodes changed by these shares. */
  ChronoFlameNode slow = { .kind = CHRONO_FLAME_KERNEL, .delta_ns = 1, .delta_percent = 100, .noise = CHRONO_COMPARE_NOISE_BEYOND };
  ChronoFlameNode slightly = { .kind = CHRONO_FLAME_KERNEL, .delta_ns = 1, .delta_percent = 10, .noise = CHRONO_COMPARE_NOISE_BEYOND };
  ChronoFlameNode same = { .kind = CHRONO_FLAME_KERNEL, .delta_ns = 1, .noise = CHRONO_COMPARE_NOISE_WITHIN };
  ChronoFlameNode faster = { .kind = CHRONO_FLAME_KERNEL, .delta_ns = -1, .delta_percent = -100, .noise = CHRONO_COMPARE_NOISE_BEYOND };
  GdkRGBA c;

  g_return_if_fail (CHRONO_IS_DIFF_FLAME_PAINTER (self));

  chrono_scene_colors_init (&colors, self->dark);
  set_source (cr, &colors.background);
  cairo_paint (cr);

  layout = new_layout (self, title ? title : "");
  pango_layout_set_width (layout, (int) ((width - 16) * PANGO_SCALE));
  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_MIDDLE);
  set_source (cr, &colors.text);
  cairo_move_to (cr, 8, 6);
  pango_cairo_show_layout (cr, layout);
  top = title_height (self, "Xg");

  x = 8;
  chrono_diff_flame_node_color (&slow, self->dark, &c);
  x = legend_entry (self, cr, x, top, &c, &colors.text, _("B slower (+50% or more)"));
  chrono_diff_flame_node_color (&slightly, self->dark, &c);
  x = legend_entry (self, cr, x, top, &c, &colors.text, _("B slower (+10%)"));
  chrono_diff_flame_node_color (&same, self->dark, &c);
  x = legend_entry (self, cr, x, top, &c, &colors.text, _("within noise"));
  chrono_diff_flame_node_color (&faster, self->dark, &c);
  x = legend_entry (self, cr, x, top, &c, &colors.text, _("B faster"));
  legend_entry (self, cr, x, top, &colors.background, &colors.dim_text, _("width: B’s time per step"));

  cairo_save (cr);
  cairo_translate (cr, 0, top + legend_height ());
  chrono_diff_flame_painter_draw (self, cr, width);
  cairo_restore (cr);
}
