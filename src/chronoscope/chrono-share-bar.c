/* chrono-share-bar.c: a thin bar split into coloured shares of a whole
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "chrono-share-bar.h"

#define BAR_HEIGHT 10

typedef struct
{
  double  value;
  GdkRGBA color;
} Part;

struct _ChronoShareBar
{
  GtkWidget parent_instance;

  GArray   *parts;  /* Part */
  double    total;
};

G_DEFINE_FINAL_TYPE (ChronoShareBar, chrono_share_bar, GTK_TYPE_WIDGET)

static void
chrono_share_bar_snapshot (GtkWidget   *widget,
                           GtkSnapshot *snapshot)
{
  ChronoShareBar *self = CHRONO_SHARE_BAR (widget);
  double width = gtk_widget_get_width (widget);
  double height = gtk_widget_get_height (widget);
  GskRoundedRect outline;
  GdkRGBA trough;
  double x = 0;

  /* The empty part in the text colour, faint, so it reads on both themes. */
  gtk_style_context_get_color (gtk_widget_get_style_context (widget), &trough);
  trough.alpha = 0.1;
  gsk_rounded_rect_init_from_rect (&outline, &GRAPHENE_RECT_INIT (0, 0, width, height), height / 2);
  gtk_snapshot_push_rounded_clip (snapshot, &outline);
  gtk_snapshot_append_color (snapshot, &trough, &GRAPHENE_RECT_INIT (0, 0, width, height));
  for (guint i = 0; i < self->parts->len && self->total > 0; i++)
    {
      const Part *part = &g_array_index (self->parts, Part, i);
      double w = width * part->value / self->total;

      gtk_snapshot_append_color (snapshot, &part->color, &GRAPHENE_RECT_INIT (x, 0, MAX (0, w), height));
      x += w;
    }
  gtk_snapshot_pop (snapshot);
}

static void
chrono_share_bar_measure (GtkWidget      *widget,
                          GtkOrientation  orientation,
                          int             for_size,
                          int            *minimum,
                          int            *natural,
                          int            *minimum_baseline,
                          int            *natural_baseline)
{
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    *minimum = *natural = 40;
  else
    *minimum = *natural = BAR_HEIGHT;
}

static void
chrono_share_bar_finalize (GObject *object)
{
  ChronoShareBar *self = CHRONO_SHARE_BAR (object);

  g_clear_pointer (&self->parts, g_array_unref);

  G_OBJECT_CLASS (chrono_share_bar_parent_class)->finalize (object);
}

static void
chrono_share_bar_class_init (ChronoShareBarClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->finalize = chrono_share_bar_finalize;
  widget_class->snapshot = chrono_share_bar_snapshot;
  widget_class->measure = chrono_share_bar_measure;
  gtk_widget_class_set_css_name (widget_class, "sharebar");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
chrono_share_bar_init (ChronoShareBar *self)
{
  self->parts = g_array_new (FALSE, FALSE, sizeof (Part));
}

GtkWidget *
chrono_share_bar_new (void)
{
  return g_object_new (CHRONO_TYPE_SHARE_BAR, NULL);
}

void
chrono_share_bar_set_parts (ChronoShareBar *self,
                            const double   *values,
                            const GdkRGBA  *colors,
                            guint           n_parts,
                            double          total)
{
  g_return_if_fail (CHRONO_IS_SHARE_BAR (self));

  g_array_set_size (self->parts, 0);
  for (guint i = 0; i < n_parts; i++)
    {
      Part part = { MAX (0, values[i]), colors[i] };
      g_array_append_val (self->parts, part);
    }
  self->total = total;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}
