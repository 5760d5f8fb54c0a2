/* chrono-memory-painter.c: a device's allocated and reserved bytes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gi18n-lib.h>
#include <math.h>

#include "chrono-format.h"
#include "chrono-image-node-private.h"
#include "chrono-memory-painter.h"
#include "chrono-palette.h"
#include "chrono-track-painter.h"

/* The series' colours, the same in every trace. */
#define ALLOCATED_NAME "allocated memory"
#define RESERVED_NAME  "reserved memory"
#define LABEL_HEIGHT 14.0
#define LABEL_INSET  4.0

/* The most bytes allocated and reserved over [T0, T1): the values
 * carried in, then the points inside, a block at a time where a column
 * holds many; FALSE before the first point. *NEXT is the first point at
 * or after T1. */
static gboolean
column_max (const ChronoMemoryDevice *d,
            guint                     first,
            gint64                    t1,
            gint64                   *allocated,
            gint64                   *reserved,
            guint                    *next)
{
  guint from = first > 0 ? first - 1 : 0;

  *next = chrono_max_blocks_seek (&d->ns_blocks, d->point_ns, first, t1);
  *allocated = chrono_max_blocks_range (&d->allocated_blocks, d->point_allocated, from, *next);
  *reserved = d->point_reserved != NULL ? chrono_max_blocks_range (&d->reserved_blocks, d->point_reserved, from, *next)
                                        : -1;
  return *next > 0;
}

gboolean
chrono_memory_painter_column (const ChronoMemoryDevice *device,
                              ChronoViewport           *viewport,
                              double                    x,
                              gint64                   *allocated,
                              gint64                   *reserved)
{
  gint64 t0 = chrono_viewport_x_to_time (viewport, x);
  gint64 t1 = MAX (chrono_viewport_x_to_time (viewport, x + 1), t0 + 1);
  guint next;
  gboolean some = column_max (device, chrono_memory_device_point_at (device, t0), t1, allocated, reserved, &next);

  /* Before the first point: nothing in use, reserved or not. */
  if (!some)
    {
      *allocated = 0;
      if (device->point_reserved != NULL)
        *reserved = 0;
    }
  return some;
}

/* Reserved bytes, then allocated ones over them, on CR or, without
 * one, straight into IMAGE. */
static void
draw (cairo_t                  *cr,
      cairo_surface_t          *image,
      const double             *allocated,
      const double             *reserved,
      int                       columns,
      double                    height,
      double                    scale,
      gboolean                  dark)
{
  const char *names[2] = { RESERVED_NAME, ALLOCATED_NAME };
  const double *values[2] = { reserved, allocated };

  for (guint k = 0; k < G_N_ELEMENTS (names); k++)
    {
      GdkRGBA fill, line;

      if (values[k] == NULL)
        continue;
      chrono_palette_series_fill_color (names[k], dark, &fill);
      chrono_palette_series_color (names[k], dark, &line);
      if (cr != NULL)
        chrono_track_painter_draw_area (cr, values[k], columns, 0, scale, height, &fill, &line);
      else
        chrono_image_node_draw_area (image, values[k], columns, 0, scale, &fill, &line);
    }
}

GskRenderNode *
chrono_memory_painter_paint (const ChronoMemoryDevice *d,
                             ChronoViewport           *viewport,
                             double                    height,
                             gboolean                  dark,
                             gboolean                  vector,
                             double                   *top)
{
  double width = chrono_viewport_get_width_px (viewport);
  int columns = (int) ceil (width);
  g_autofree double *allocated = NULL;
  g_autofree double *reserved = NULL;
  gboolean any = FALSE;
  gint64 t0;
  guint first;
  double scale;
  GskRenderNode *node;
  cairo_surface_t *image;
  cairo_t *cr;

  *top = MAX (d->peak_allocated_bytes, d->peak_reserved_bytes);
  if (columns <= 0 || height <= 0 || d->n_points == 0 || *top <= 0)
    return NULL;
  allocated = g_new (double, columns);
  reserved = d->point_reserved != NULL ? g_new (double, columns) : NULL;
  /* Neighbouring columns share their edge: one search for the window. */
  t0 = chrono_viewport_x_to_time (viewport, 0);
  first = chrono_memory_device_point_at (d, t0);
  for (int c = 0; c < columns; c++)
    {
      gint64 t1 = MAX (chrono_viewport_x_to_time (viewport, c + 1), t0 + 1);
      gint64 a, r;
      guint next;
      gboolean some = column_max (d, first, t1, &a, &r, &next);

      allocated[c] = some ? (double) a : NAN;
      any |= some;
      if (reserved != NULL)
        reserved[c] = some ? (double) r : NAN;
      first = next;
      t0 = t1;
    }
  if (!any)
    return NULL;
  scale = (height - 1) / *top;
  if (vector)
    {
      node = gsk_cairo_node_new (&GRAPHENE_RECT_INIT (0, 0, width, height));
      cr = gsk_cairo_node_get_draw_context (node);
      draw (cr, NULL, allocated, reserved, columns, height, scale, dark);
      cairo_destroy (cr);
      return node;
    }
  image = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, columns, (int) height);
  draw (NULL, image, allocated, reserved, columns, height, scale, dark);
  return chrono_image_node_new (image, 0, 0);
}

void
chrono_memory_painter_snapshot_axis (GtkSnapshot              *snapshot,
                                     ChronoTextCache          *text,
                                     const ChronoSceneColors  *colors,
                                     const ChronoMemoryDevice *d,
                                     ChronoViewport           *viewport,
                                     double                    x,
                                     double                    y,
                                     double                    width,
                                     double                    height,
                                     double                    top)
{
  g_autofree char *top_label = NULL;
  double px;

  if (top <= 0)
    return;
  top_label = chrono_format_bytes ((guint64) top);
  chrono_text_cache_append (text, snapshot, top_label, x + LABEL_INSET, y, 0, LABEL_HEIGHT, &colors->dim_text);
  chrono_text_cache_append (text, snapshot, "0", x + LABEL_INSET, y + height - LABEL_HEIGHT, 0, LABEL_HEIGHT,
                            &colors->dim_text);
  /* The peak: a dashed line down the row, labelled beside it. */
  px = floor (chrono_viewport_time_to_x (viewport, d->peak_ns));
  if (px >= 0 && px < width)
    {
      g_autofree char *bytes = chrono_format_bytes (d->peak_allocated_bytes);
      /* Translators: the mark of a device's memory peak: "peak 2.7 GB". */
      g_autofree char *label = g_strdup_printf (_("peak %s"), bytes);
      double label_width = chrono_text_cache_measure (text, label);
      double lx = px + LABEL_INSET + label_width < width ? px + LABEL_INSET : px - LABEL_INSET - label_width;

      for (double dy = 0; dy < height; dy += 6)
        gtk_snapshot_append_color (snapshot, &colors->text,
                                   &GRAPHENE_RECT_INIT (x + px, y + dy, 1, MIN (3, height - dy)));
      chrono_text_cache_append (text, snapshot, label, x + lx, y + floor ((height - LABEL_HEIGHT) / 2), 0, LABEL_HEIGHT,
                                &colors->text);
    }
}

/* The largest allocation made in [T0, T1), or NULL. */
static const ChronoMemoryAllocation *
largest_made_in (const ChronoMemoryDevice *d,
                 gint64                    t0,
                 gint64                    t1)
{
  const ChronoMemoryAllocation *best = NULL;
  guint lo = 0, hi = d->allocations->len;

  /* Allocations are in time order: the first at or after T0. */
  while (lo < hi)
    {
      guint mid = (lo + hi) / 2;
      if (g_array_index (d->allocations, ChronoMemoryAllocation, mid).alloc_ns < t0)
        lo = mid + 1;
      else
        hi = mid;
    }
  for (guint k = lo; k < d->allocations->len; k++)
    {
      const ChronoMemoryAllocation *a = &g_array_index (d->allocations, ChronoMemoryAllocation, k);

      if (a->alloc_ns >= t1)
        break;
      if (best == NULL || a->bytes > best->bytes)
        best = a;
    }
  return best;
}

char *
chrono_memory_painter_dup_tooltip (const ChronoMemoryDevice *device,
                                   ChronoTrace              *trace,
                                   ChronoViewport           *viewport,
                                   double                    x)
{
  gint64 t0 = chrono_viewport_x_to_time (viewport, x);
  gint64 t1 = MAX (chrono_viewport_x_to_time (viewport, x + 1), t0 + 1);
  g_autoptr(GString) text = g_string_new (NULL);
  g_autofree char *title = g_markup_printf_escaped ("<b>%s</b>", device->label);
  g_autofree char *width = chrono_format_duration (t1 - t0);
  const ChronoMemoryAllocation *a;
  gint64 allocated, reserved;

  g_string_append (text, title);
  if (!chrono_memory_painter_column (device, viewport, x, &allocated, &reserved))
    {
      g_string_append_c (text, '\n');
      g_string_append (text, _("Before the first memory event"));
      return g_string_free (g_steal_pointer (&text), FALSE);
    }
  {
    g_autofree char *used = chrono_format_bytes (allocated);
    g_autofree char *line = NULL;

    if (device->counter_name != CHRONO_NO_STRING)
      /* Translators: a memory counter under the pointer: the most in use
       * over the time one pixel spans */
      line = g_markup_printf_escaped (_("%s in use, at most, over %s"), used, width);
    else if (reserved >= 0)
      {
        g_autofree char *held = chrono_format_bytes (reserved);
        /* Translators: the allocator's bytes under the pointer, the most
         * over the time one pixel spans */
        line = g_markup_printf_escaped (_("%s allocated · %s reserved, at most, over %s"), used, held, width);
      }
    else
      line = g_markup_printf_escaped (_("%s allocated, at most, over %s"), used, width);
    g_string_append_printf (text, "\n%s", line);
  }
  a = largest_made_in (device, t0, t1);
  if (a != NULL)
    {
      g_autofree char *bytes = chrono_format_bytes (a->bytes);
      const char *op = a->op_name != CHRONO_NO_STRING ? chrono_trace_get_string (trace, a->op_name)
                                                      : _("outside any operator");
      g_autofree char *line = NULL;

      if (a->free_ns >= 0)
        {
          g_autofree char *lived = chrono_format_duration (a->free_ns - a->alloc_ns);
          /* Translators: the largest allocation under the pointer: its
           * bytes, the operator that made it, how long it lived */
          line = g_markup_printf_escaped (_("Allocated here: %s by %s, freed %s later"), bytes, op, lived);
        }
      else
        line = g_markup_printf_escaped (_("Allocated here: %s by %s, not freed in the trace"), bytes, op);
      g_string_append_printf (text, "\n%s", line);
    }
  return g_string_free (g_steal_pointer (&text), FALSE);
}
