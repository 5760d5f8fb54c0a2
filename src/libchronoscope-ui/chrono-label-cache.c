/* chrono-label-cache.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "chrono-format.h"
#include "chrono-label-cache-private.h"
#include "chrono-text-layout.h"

typedef struct {
  PangoLayout *layout;     /* shaped once; its line's glyph runs are reused */
  double       width;
  double       first_width; /* of its first character */
  gboolean     cuttable;    /* all left to right, so it may end at any character */
} Label;

struct _ChronoLabelCache
{
  PangoContext         *context;
  PangoFontDescription *font;
  GHashTable           *labels;   /* string id -> Label */
  Label                *ellipsis;
  double                line_height;
  double                baseline;
};

static void
label_free (gpointer data)
{
  Label *label = data;

  g_clear_object (&label->layout);
  g_free (label);
}

/* WIDTH > 0 ellipsizes the text to it, for labels that cannot be cut. */
static Label *
label_new (ChronoLabelCache *self,
           const char       *text,
           double            width)
{
  Label *label = g_new0 (Label, 1);
  PangoLayoutLine *line;
  PangoRectangle logical;

  label->layout = pango_layout_new (self->context);
  pango_layout_set_font_description (label->layout, self->font);
  chrono_text_layout_disable_ligatures (label->layout);
  pango_layout_set_single_paragraph_mode (label->layout, TRUE);
  if (width > 0)
    {
      pango_layout_set_width (label->layout, (int) (width * PANGO_SCALE));
      pango_layout_set_ellipsize (label->layout, PANGO_ELLIPSIZE_END);
    }
  pango_layout_set_text (label->layout, text, -1);
  pango_layout_get_extents (label->layout, NULL, &logical);
  label->width = (double) logical.width / PANGO_SCALE;

  line = pango_layout_get_line_readonly (label->layout, 0);
  label->cuttable = TRUE;
  for (GSList *l = line->runs; l != NULL; l = l->next)
    {
      const PangoGlyphItem *run = l->data;

      if (run->item->analysis.level % 2 != 0)
        label->cuttable = FALSE;
    }
  if (line->runs != NULL)
    {
      const PangoGlyphString *glyphs = ((const PangoGlyphItem *) line->runs->data)->glyphs;

      for (int g = 0; g < glyphs->num_glyphs; g++)
        {
          if (g > 0 && glyphs->glyphs[g].attr.is_cluster_start)
            break;
          label->first_width += (double) glyphs->glyphs[g].geometry.width / PANGO_SCALE;
        }
    }
  return label;
}

ChronoLabelCache *
chrono_label_cache_new (PangoContext               *context,
                        const PangoFontDescription *font)
{
  ChronoLabelCache *self = g_new0 (ChronoLabelCache, 1);
  PangoFontMetrics *metrics;

  self->context = g_object_ref (context);
  self->font = pango_font_description_copy (font);
  self->labels = g_hash_table_new_full (NULL, NULL, NULL, label_free);
  self->ellipsis = label_new (self, "…", 0);

  metrics = pango_context_get_metrics (context, font, NULL);
  self->baseline = (double) pango_font_metrics_get_ascent (metrics) / PANGO_SCALE;
  self->line_height = self->baseline
                      + (double) pango_font_metrics_get_descent (metrics) / PANGO_SCALE;
  pango_font_metrics_unref (metrics);
  return self;
}

void
chrono_label_cache_free (ChronoLabelCache *self)
{
  if (self == NULL)
    return;
  g_clear_object (&self->context);
  g_clear_pointer (&self->font, pango_font_description_free);
  g_clear_pointer (&self->labels, g_hash_table_unref);
  g_clear_pointer (&self->ellipsis, label_free);
  g_free (self);
}

double
chrono_label_cache_get_line_height (ChronoLabelCache *self)
{
  return self->line_height;
}

double
chrono_label_cache_get_baseline (ChronoLabelCache *self)
{
  return self->baseline;
}

/* Appends a text node per glyph run of LABEL, as far as they fit in
 * LIMIT, cutting a run before the character that would cross it.
 * Returns the width drawn. */
static double
append_runs (const Label   *label,
             double         x,
             double         baseline,
             double         limit,
             const GdkRGBA *color,
             GPtrArray     *nodes)
{
  PangoLayoutLine *line = pango_layout_get_line_readonly (label->layout, 0);
  double cursor = 0;

  for (GSList *l = line->runs; l != NULL; l = l->next)
    {
      const PangoGlyphItem *run = l->data;
      PangoGlyphString part = *run->glyphs;
      gboolean whole = TRUE;
      double width = 0, cut_width = 0;
      int cut = 0;

      for (int g = 0; g < part.num_glyphs; g++)
        {
          if (part.glyphs[g].attr.is_cluster_start)
            {
              cut = g;
              cut_width = width;
            }
          width += (double) part.glyphs[g].geometry.width / PANGO_SCALE;
          if (cursor + width > limit)
            {
              whole = FALSE;
              break;
            }
        }
      if (whole)
        {
          cut = part.num_glyphs;
          cut_width = width;
        }

      /* The node copies the glyphs it draws: a shortened view of the
       * cached string is enough. */
      part.num_glyphs = cut;
      if (cut > 0)
        {
          GskRenderNode *node = gsk_text_node_new (run->item->analysis.font, &part, color,
                                                   &GRAPHENE_POINT_INIT (x + cursor, baseline));
          if (node != NULL)
            g_ptr_array_add (nodes, node);
        }
      cursor += cut_width;
      if (!whole)
        break;
    }
  return cursor;
}

double
chrono_label_cache_append (ChronoLabelCache *self,
                           guint32           id,
                           const char       *text,
                           double            x,
                           double            baseline,
                           double            max_width,
                           const GdkRGBA    *color,
                           GPtrArray        *nodes)
{
  Label *label = g_hash_table_lookup (self->labels, GUINT_TO_POINTER (id));
  g_autofree char *short_name = NULL;
  double used;

  if (label == NULL)
    {
      /* A kernel's C++ signature shows by its name; the tooltip and the
       * details have it whole. Worked out once per name. */
      short_name = chrono_format_short_name (text, CHRONO_SHORT_NAME_WIDTH);
      label = label_new (self, short_name, 0);
      g_hash_table_insert (self->labels, GUINT_TO_POINTER (id), label);
    }

  if (label->width <= max_width)
    return append_runs (label, x, baseline, G_MAXDOUBLE, color, nodes);
  if (label->first_width + self->ellipsis->width > max_width)
    return 0;

  if (!label->cuttable)
    {
      /* Rare (right-to-left text): let Pango shape and ellipsize it. */
      Label *cut = label_new (self, pango_layout_get_text (label->layout), max_width);

      used = append_runs (cut, x, baseline, G_MAXDOUBLE, color, nodes);
      label_free (cut);
      return used;
    }

  used = append_runs (label, x, baseline, max_width - self->ellipsis->width, color, nodes);
  return used + append_runs (self->ellipsis, x + used, baseline, G_MAXDOUBLE, color, nodes);
}
