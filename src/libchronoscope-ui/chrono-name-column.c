/* chrono-name-column.c: the timeline's column of names
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gi18n-lib.h>

#include "chrono-name-column.h"

#define HEADER_WIDTH   CHRONO_SCENE_HEADER_WIDTH
#define ROW_HEIGHT     CHRONO_SCENE_ROW_HEIGHT
#define TRACK_PAD      CHRONO_SCENE_TRACK_PAD
/* The disclosure triangle of a process header. */
#define TRIANGLE_SIZE  8.0
#define TEXT_INSET     8.0

/* Pointing right when collapsed, down when expanded. A node of its own,
 * from its own origin, placed by a transform: cairo's SVG surface loses
 * drawings recorded away from their origin. */
static void
snapshot_triangle (GtkSnapshot   *snapshot,
                   gboolean       collapsed,
                   double         x,
                   double         y,
                   const GdkRGBA *color)
{
  const double s = TRIANGLE_SIZE;
  g_autoptr(GskRenderNode) node = gsk_cairo_node_new (&GRAPHENE_RECT_INIT (0, 0, s, s));
  cairo_t *cr = gsk_cairo_node_get_draw_context (node);

  if (collapsed)
    {
      cairo_move_to (cr, s * 0.2, 0);
      cairo_line_to (cr, s * 0.9, s / 2);
      cairo_line_to (cr, s * 0.2, s);
    }
  else
    {
      cairo_move_to (cr, 0, s * 0.2);
      cairo_line_to (cr, s, s * 0.2);
      cairo_line_to (cr, s / 2, s * 0.9);
    }
  cairo_close_path (cr);
  gdk_cairo_set_source_rgba (cr, color);
  cairo_fill (cr);
  cairo_destroy (cr);
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (x, y));
  gtk_snapshot_append_node (snapshot, node);
  gtk_snapshot_restore (snapshot);
}

void
chrono_name_column_snapshot_group (GtkSnapshot             *snapshot,
                                   ChronoTextCache         *text,
                                   const ChronoSceneColors *colors,
                                   const ChronoSceneRow    *r,
                                   const char              *name,
                                   gboolean                 current,
                                   double                   width)
{
  double inset = TEXT_INSET;

  gtk_snapshot_append_color (snapshot, &colors->group, &GRAPHENE_RECT_INIT (0, r->y, width, r->height));
  if (name == NULL)
    {
      chrono_text_cache_append (text, snapshot, _("Pinned"), inset, r->y, width - 2 * TEXT_INSET, r->height,
                                &colors->text);
      return;
    }
  if (current)
    gtk_snapshot_append_color (snapshot, &colors->current,
                               &GRAPHENE_RECT_INIT (0, r->y, HEADER_WIDTH - 1, r->height));
  snapshot_triangle (snapshot, r->collapsed, inset, r->y + (r->height - TRIANGLE_SIZE) / 2,
                     &colors->dim_text);
  inset += TRIANGLE_SIZE + TEXT_INSET / 2;
  /* Collapsed, the name keeps to its column: the strip is beside it. */
  chrono_text_cache_append (text, snapshot, name,
                            inset, r->y, (r->collapsed ? HEADER_WIDTH : width) - inset - TEXT_INSET, r->height,
                            &colors->text);
}

void
chrono_name_column_snapshot_track (GtkSnapshot             *snapshot,
                                   ChronoTextCache         *text,
                                   const ChronoSceneColors *colors,
                                   const ChronoSceneRow    *r,
                                   const char              *name,
                                   gboolean                 current,
                                   double                   name_y,
                                   double                   width)
{
  double name_height = MIN (r->height - 2 * TRACK_PAD, 2 * ROW_HEIGHT);

  if (current)
    gtk_snapshot_append_color (snapshot, &colors->current,
                               &GRAPHENE_RECT_INIT (0, r->y, HEADER_WIDTH - 1, r->height - 1));
  name_y = MIN (name_y, r->y + r->height - name_height - 2 * TRACK_PAD);
  chrono_text_cache_append (text, snapshot, name,
                            2 * TEXT_INSET, name_y + TRACK_PAD, HEADER_WIDTH - 3 * TEXT_INSET,
                            name_height, &colors->dim_text);
  if (r->n_rows_hidden > 0 && r->height >= name_height + ROW_HEIGHT + 2 * TRACK_PAD)
    {
      g_autofree char *more = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "+%u level (E)", "+%u levels (E)",
                                                            r->n_rows_hidden),
                                               r->n_rows_hidden);

      chrono_text_cache_append (text, snapshot, more, 2 * TEXT_INSET, r->y + r->height - TRACK_PAD - ROW_HEIGHT,
                                HEADER_WIDTH - 3 * TEXT_INSET, ROW_HEIGHT, &colors->dim_text);
    }
  gtk_snapshot_append_color (snapshot, &colors->line,
                             &GRAPHENE_RECT_INIT (0, r->y + r->height - 1, width, 1));
}
