/* chrono-zoom-controllers.c: the event controllers of a canvas that
 * zooms at the pointer
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "chrono-zoom-controllers.h"

void
chrono_zoom_controllers_add (GtkWidget *widget,
                             GCallback  scroll_cb,
                             GCallback  motion_cb,
                             gpointer   user_data)
{
  GtkEventController *controller;

  controller = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);
  g_signal_connect (controller, "scroll", scroll_cb, user_data);
  gtk_widget_add_controller (widget, controller);

  controller = gtk_event_controller_motion_new ();
  g_signal_connect (controller, "enter", motion_cb, user_data);
  g_signal_connect (controller, "motion", motion_cb, user_data);
  gtk_widget_add_controller (widget, controller);
}
