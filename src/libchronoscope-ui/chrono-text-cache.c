/* chrono-text-cache.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>

#include "chrono-text-cache.h"
#include "chrono-text-layout.h"

/* Past this many, the ruler's labels of other zoom levels are dropped
 * with the rest. */
#define MAX_LAYOUTS 512

struct _ChronoTextCache
{
  PangoContext *context;
  GHashTable   *layouts;   /* text -> PangoLayout */
};

ChronoTextCache *
chrono_text_cache_new (PangoContext *context)
{
  ChronoTextCache *self = g_new0 (ChronoTextCache, 1);

  self->context = g_object_ref (context);
  self->layouts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
  return self;
}

void
chrono_text_cache_free (ChronoTextCache *self)
{
  if (self == NULL)
    return;
  g_hash_table_unref (self->layouts);
  g_object_unref (self->context);
  g_free (self);
}

PangoContext *
chrono_text_cache_get_context (ChronoTextCache *self)
{
  return self->context;
}

static PangoLayout *
get_layout (ChronoTextCache *self,
            const char      *text)
{
  PangoLayout *layout = g_hash_table_lookup (self->layouts, text);

  if (layout == NULL)
    {
      if (g_hash_table_size (self->layouts) >= MAX_LAYOUTS)
        g_hash_table_remove_all (self->layouts);
      layout = pango_layout_new (self->context);
      chrono_text_layout_disable_ligatures (layout);
      pango_layout_set_text (layout, text, -1);
      g_hash_table_insert (self->layouts, g_strdup (text), layout);
    }
  return layout;
}

double
chrono_text_cache_measure (ChronoTextCache *self,
                           const char      *text)
{
  PangoLayout *layout = get_layout (self, text);
  int width;

  pango_layout_set_width (layout, -1);
  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_NONE);
  pango_layout_get_pixel_size (layout, &width, NULL);
  return width;
}

void
chrono_text_cache_append (ChronoTextCache *self,
                          GtkSnapshot     *snapshot,
                          const char      *text,
                          double           x,
                          double           y,
                          double           max_width,
                          double           height,
                          const GdkRGBA   *color)
{
  PangoLayout *layout = get_layout (self, text);
  int text_height;

  pango_layout_set_width (layout, max_width > 0 ? (int) (max_width * PANGO_SCALE) : -1);
  pango_layout_set_ellipsize (layout, max_width > 0 ? PANGO_ELLIPSIZE_END : PANGO_ELLIPSIZE_NONE);
  pango_layout_get_pixel_size (layout, NULL, &text_height);

  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (x, y + floor ((height - text_height) / 2)));
  gtk_snapshot_append_layout (snapshot, layout, color);
  gtk_snapshot_restore (snapshot);
}
