/* chrono-diff-flame.c: a comparison's differential flame graph as a widget
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>

#include <glib/gi18n-lib.h>

#include "chrono-diff-flame.h"
#include "chrono-diff-flame-painter.h"

struct _ChronoDiffFlame
{
  GtkWidget parent_instance;

  ChronoComparison       *comparison;
  ChronoComparisonTree   *tree;
  ChronoDiffFlamePainter *painter;
  const ChronoFlameNode  *selected;
  const ChronoFlameNode  *hover;
  gboolean dark;
};

G_DEFINE_FINAL_TYPE (ChronoDiffFlame, chrono_diff_flame, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_COMPARISON,
  PROP_DARK,
  N_PROPS
};

enum {
  CALLS_SELECTED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static double
width_of (ChronoDiffFlame *self)
{
  return MAX (gtk_widget_get_width (GTK_WIDGET (self)), 1);
}

/* The node's words for assistive technologies, and the pointer's. */
static void
update_description (ChronoDiffFlame *self)
{
  const ChronoFlameNode *node = self->selected ? self->selected : chrono_diff_flame_get_focus (self);
  g_autofree char *text = node ? chrono_diff_flame_node_describe (node) : NULL;

  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                  text ? text : _("No comparison"), -1);
}

static void
select_node (ChronoDiffFlame       *self,
             const ChronoFlameNode *node)
{
  self->selected = node;
  chrono_diff_flame_painter_set_selected (self->painter, node);
  update_description (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* NODE focused and selected, and its calls on both sides said. */
static void
activate_node (ChronoDiffFlame       *self,
               const ChronoFlameNode *node)
{
  g_autoptr(GArray) a = NULL;
  g_autoptr(GArray) b = NULL;

  chrono_diff_flame_set_focus (self, node);
  select_node (self, node);
  a = chrono_comparison_tree_collect_calls (self->tree, node, CHRONO_COMPARE_SIDE_A,
                                            CHRONO_FLAME_CALLS_DEVICE | CHRONO_FLAME_CALLS_HOST);
  b = chrono_comparison_tree_collect_calls (self->tree, node, CHRONO_COMPARE_SIDE_B,
                                            CHRONO_FLAME_CALLS_DEVICE | CHRONO_FLAME_CALLS_HOST);
  g_signal_emit (self, signals[CALLS_SELECTED], 0, node, a, b);
}

/* ------------------------------------------------------------------ */
/* Drawing and size                                                   */

static void
chrono_diff_flame_snapshot (GtkWidget   *widget,
                            GtkSnapshot *snapshot)
{
  ChronoDiffFlame *self = CHRONO_DIFF_FLAME (widget);
  double width = width_of (self), height = gtk_widget_get_height (widget);
  cairo_t *cr;

  if (self->tree == NULL || height <= 0)
    return;
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  chrono_diff_flame_painter_draw (self->painter, cr, width);
  cairo_destroy (cr);
}

static GtkSizeRequestMode
chrono_diff_flame_get_request_mode (GtkWidget *widget)
{
  return GTK_SIZE_REQUEST_HEIGHT_FOR_WIDTH;
}

static void
chrono_diff_flame_measure (GtkWidget      *widget,
                           GtkOrientation  orientation,
                           int             for_size,
                           int            *minimum,
                           int            *natural,
                           int            *minimum_baseline,
                           int            *natural_baseline)
{
  ChronoDiffFlame *self = CHRONO_DIFF_FLAME (widget);

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = 100;
      *natural = 600;
    }
  else
    {
      double width = for_size > 0 ? for_size : 600;

      *minimum = (int) CHRONO_DIFF_FLAME_ROW_HEIGHT;
      *natural = self->tree ? (int) ceil (chrono_diff_flame_painter_get_height (self->painter, width)) : *minimum;
    }
}

static void
chrono_diff_flame_size_allocate (GtkWidget *widget,
                                 int        width,
                                 int        height,
                                 int        baseline)
{
  /* The layout follows the width on the next draw. */
  gtk_widget_queue_draw (widget);
}

/* ------------------------------------------------------------------ */
/* Pointer                                                            */

static const ChronoFlameNode *
node_at (ChronoDiffFlame *self,
         double           x,
         double           y)
{
  const ChronoDiffFlameFrame *f;

  if (self->tree == NULL)
    return NULL;
  f = chrono_diff_flame_painter_frame_at (self->painter, width_of (self), x, y);
  return f ? f->node : NULL;
}

static void
motion_cb (GtkEventControllerMotion *motion,
           double                    x,
           double                    y,
           ChronoDiffFlame          *self)
{
  const ChronoFlameNode *node = node_at (self, x, y);

  if (node == self->hover)
    return;
  self->hover = node;
  chrono_diff_flame_painter_set_hover (self->painter, node);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
leave_cb (GtkEventControllerMotion *motion,
          ChronoDiffFlame          *self)
{
  self->hover = NULL;
  chrono_diff_flame_painter_set_hover (self->painter, NULL);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
click_released_cb (GtkGestureClick *gesture,
                   int              n_press,
                   double           x,
                   double           y,
                   ChronoDiffFlame *self)
{
  const ChronoFlameNode *node = node_at (self, x, y);

  gtk_widget_grab_focus (GTK_WIDGET (self));
  if (node)
    activate_node (self, node);
}

static gboolean
chrono_diff_flame_query_tooltip (GtkWidget  *widget,
                                 int         x,
                                 int         y,
                                 gboolean    keyboard_tooltip,
                                 GtkTooltip *tooltip)
{
  ChronoDiffFlame *self = CHRONO_DIFF_FLAME (widget);
  const ChronoFlameNode *node = keyboard_tooltip ? self->selected : node_at (self, x, y);
  g_autofree char *text = NULL;
  graphene_rect_t area;

  if (node == NULL)
    return FALSE;
  text = chrono_diff_flame_node_describe (node);
  gtk_tooltip_set_text (tooltip, text);
  if (chrono_diff_flame_get_node_area (self, node, &area))
    gtk_tooltip_set_tip_area (tooltip, &(GdkRectangle) { (int) area.origin.x, (int) area.origin.y,
                                                          (int) MAX (area.size.width, 1), (int) area.size.height });
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* Keys                                                               */

static void
zoom_out_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  ChronoDiffFlame *self = CHRONO_DIFF_FLAME (widget);
  const ChronoFlameNode *focus = chrono_diff_flame_get_focus (self);

  if (focus == NULL || focus->parent == NULL)
    return;
  chrono_diff_flame_set_focus (self, focus->parent);
  select_node (self, focus->parent);
}

static void
activate_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  ChronoDiffFlame *self = CHRONO_DIFF_FLAME (widget);
  const ChronoFlameNode *node = self->selected ? self->selected : chrono_diff_flame_get_focus (self);

  if (node)
    activate_node (self, node);
}

/* Whether NODE is drawn at the current width. */
static gboolean
is_drawn (ChronoDiffFlame       *self,
          const ChronoFlameNode *node)
{
  return chrono_diff_flame_get_node_area (self, node, NULL);
}

/* Up to the parent, down to the widest child, across to the drawn
 * neighbour. */
static void
move_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  ChronoDiffFlame *self = CHRONO_DIFF_FLAME (widget);
  const ChronoFlameNode *node = self->selected ? self->selected : chrono_diff_flame_get_focus (self);
  const char *where = g_variant_get_string (parameter, NULL);
  const ChronoFlameNode *next = NULL;

  if (node == NULL)
    return;
  if (g_str_equal (where, "up"))
    next = node->parent;
  else if (g_str_equal (where, "down"))
    next = node->n_children > 0 && is_drawn (self, node->children[0]) ? node->children[0] : NULL;
  else if (node->parent)
    {
      const ChronoFlameNode *p = node->parent;
      gint step = g_str_equal (where, "left") ? -1 : 1;
      gint i;

      for (i = 0; i < (gint) p->n_children && p->children[i] != node; i++)
        ;
      for (i += step; i >= 0 && i < (gint) p->n_children && next == NULL; i += step)
        if (is_drawn (self, p->children[i]))
          next = p->children[i];
    }
  if (next && is_drawn (self, next))
    select_node (self, next);
}

/* ------------------------------------------------------------------ */
/* Object                                                             */

static void
chrono_diff_flame_dispose (GObject *object)
{
  ChronoDiffFlame *self = CHRONO_DIFF_FLAME (object);

  g_clear_object (&self->painter);
  g_clear_object (&self->tree);
  g_clear_object (&self->comparison);
  G_OBJECT_CLASS (chrono_diff_flame_parent_class)->dispose (object);
}

static void
chrono_diff_flame_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  ChronoDiffFlame *self = CHRONO_DIFF_FLAME (object);

  switch (prop_id)
    {
    case PROP_COMPARISON:
      g_value_set_object (value, self->comparison);
      break;
    case PROP_DARK:
      g_value_set_boolean (value, self->dark);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
chrono_diff_flame_set_property (GObject      *object,
                                guint         prop_id,
                                const GValue *value,
                                GParamSpec   *pspec)
{
  ChronoDiffFlame *self = CHRONO_DIFF_FLAME (object);

  switch (prop_id)
    {
    case PROP_COMPARISON:
      chrono_diff_flame_set_comparison (self, g_value_get_object (value));
      break;
    case PROP_DARK:
      chrono_diff_flame_set_dark (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
add_move_key (GtkWidgetClass *widget_class,
              guint           key,
              const char     *where)
{
  gtk_widget_class_add_binding_action (widget_class, key, 0, "flame.move", "s", where);
}

static void
chrono_diff_flame_class_init (ChronoDiffFlameClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = chrono_diff_flame_dispose;
  object_class->get_property = chrono_diff_flame_get_property;
  object_class->set_property = chrono_diff_flame_set_property;

  widget_class->snapshot = chrono_diff_flame_snapshot;
  widget_class->get_request_mode = chrono_diff_flame_get_request_mode;
  widget_class->measure = chrono_diff_flame_measure;
  widget_class->size_allocate = chrono_diff_flame_size_allocate;
  widget_class->query_tooltip = chrono_diff_flame_query_tooltip;

  properties[PROP_COMPARISON] =
    g_param_spec_object ("comparison", NULL, NULL, CHRONO_TYPE_COMPARISON,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_DARK] =
    g_param_spec_boolean ("dark", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * ChronoDiffFlame::calls-selected:
   * @node: (type gpointer): the ChronoFlameNode clicked or activated
   * @a_calls: (element-type ChronoSpanRef): A's spans under it: kernels,
   *   copies and sets, and the operator calls that launched them
   * @b_calls: (element-type ChronoSpanRef): B's
   *
   * For the timelines to highlight the node's calls on both sides; the
   * arrays are valid during the emission.
   */
  signals[CALLS_SELECTED] =
    g_signal_new ("calls-selected", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 3, G_TYPE_POINTER, G_TYPE_ARRAY, G_TYPE_ARRAY);

  gtk_widget_class_install_action (widget_class, "flame.zoom-out", NULL, zoom_out_action);
  gtk_widget_class_install_action (widget_class, "flame.activate", NULL, activate_action);
  gtk_widget_class_install_action (widget_class, "flame.move", "s", move_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "flame.zoom-out", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_BackSpace, 0, "flame.zoom-out", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Return, 0, "flame.activate", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Enter, 0, "flame.activate", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_space, 0, "flame.activate", NULL);
  add_move_key (widget_class, GDK_KEY_Up, "up");
  add_move_key (widget_class, GDK_KEY_Down, "down");
  add_move_key (widget_class, GDK_KEY_Left, "left");
  add_move_key (widget_class, GDK_KEY_Right, "right");

  gtk_widget_class_set_css_name (widget_class, "diffflame");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_WIDGET);
}

static void
chrono_diff_flame_init (ChronoDiffFlame *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  GtkEventController *motion = gtk_event_controller_motion_new ();
  GtkGesture *click = gtk_gesture_click_new ();

  self->painter = chrono_diff_flame_painter_new ();
  /* The widget's font, as the style gives it. */
  chrono_diff_flame_painter_set_pango_context (self->painter, gtk_widget_get_pango_context (widget));
  gtk_widget_set_focusable (widget, TRUE);
  gtk_widget_set_has_tooltip (widget, TRUE);
  gtk_widget_set_overflow (widget, GTK_OVERFLOW_HIDDEN);

  g_signal_connect (motion, "motion", G_CALLBACK (motion_cb), self);
  g_signal_connect (motion, "leave", G_CALLBACK (leave_cb), self);
  gtk_widget_add_controller (widget, motion);
  g_signal_connect (click, "released", G_CALLBACK (click_released_cb), self);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (click));

  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Differential flame graph"), -1);
  update_description (self);
}

GtkWidget *
chrono_diff_flame_new (void)
{
  return g_object_new (CHRONO_TYPE_DIFF_FLAME, NULL);
}

ChronoComparison *
chrono_diff_flame_get_comparison (ChronoDiffFlame *self)
{
  g_return_val_if_fail (CHRONO_IS_DIFF_FLAME (self), NULL);
  return self->comparison;
}

void
chrono_diff_flame_set_comparison (ChronoDiffFlame  *self,
                                  ChronoComparison *comparison)
{
  g_return_if_fail (CHRONO_IS_DIFF_FLAME (self));
  g_return_if_fail (comparison == NULL || CHRONO_IS_COMPARISON (comparison));

  if (!g_set_object (&self->comparison, comparison))
    return;
  g_clear_object (&self->tree);
  if (comparison)
    self->tree = chrono_comparison_tree_new (comparison);
  chrono_diff_flame_painter_set_tree (self->painter, self->tree);
  self->selected = self->hover = NULL;
  update_description (self);
  gtk_widget_queue_resize (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_COMPARISON]);
}

ChronoComparisonTree *
chrono_diff_flame_get_tree (ChronoDiffFlame *self)
{
  g_return_val_if_fail (CHRONO_IS_DIFF_FLAME (self), NULL);
  return self->tree;
}

gboolean
chrono_diff_flame_get_dark (ChronoDiffFlame *self)
{
  g_return_val_if_fail (CHRONO_IS_DIFF_FLAME (self), FALSE);
  return self->dark;
}

void
chrono_diff_flame_set_dark (ChronoDiffFlame *self,
                            gboolean         dark)
{
  g_return_if_fail (CHRONO_IS_DIFF_FLAME (self));

  dark = !!dark;
  if (self->dark == dark)
    return;
  self->dark = dark;
  chrono_diff_flame_painter_set_dark (self->painter, dark);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DARK]);
}

const ChronoFlameNode *
chrono_diff_flame_get_focus (ChronoDiffFlame *self)
{
  g_return_val_if_fail (CHRONO_IS_DIFF_FLAME (self), NULL);
  return chrono_diff_flame_painter_get_focus (self->painter);
}

void
chrono_diff_flame_set_focus (ChronoDiffFlame       *self,
                             const ChronoFlameNode *node)
{
  g_return_if_fail (CHRONO_IS_DIFF_FLAME (self));

  chrono_diff_flame_painter_set_focus (self->painter, node);
  update_description (self);
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

const ChronoFlameNode *
chrono_diff_flame_get_selected (ChronoDiffFlame *self)
{
  g_return_val_if_fail (CHRONO_IS_DIFF_FLAME (self), NULL);
  return self->selected;
}

void
chrono_diff_flame_set_selected (ChronoDiffFlame       *self,
                                const ChronoFlameNode *node)
{
  g_return_if_fail (CHRONO_IS_DIFF_FLAME (self));
  select_node (self, node);
}

gboolean
chrono_diff_flame_get_node_area (ChronoDiffFlame       *self,
                                 const ChronoFlameNode *node,
                                 graphene_rect_t       *area)
{
  const ChronoDiffFlameFrame *frames;
  guint n;

  g_return_val_if_fail (CHRONO_IS_DIFF_FLAME (self), FALSE);

  if (self->tree == NULL || node == NULL)
    return FALSE;
  frames = chrono_diff_flame_painter_layout (self->painter, width_of (self), &n);
  for (guint i = 0; i < n; i++)
    if (frames[i].node == node)
      {
        if (area)
          graphene_rect_init (area, frames[i].x, frames[i].row * CHRONO_DIFF_FLAME_ROW_HEIGHT,
                              frames[i].width, CHRONO_DIFF_FLAME_ROW_HEIGHT);
        return TRUE;
      }
  return FALSE;
}
