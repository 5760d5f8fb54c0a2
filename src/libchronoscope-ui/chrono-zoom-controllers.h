/* chrono-zoom-controllers.h: the event controllers of a canvas that
 * zooms at the pointer
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* A scroll controller on both axes, calling SCROLL_CB, and a motion
 * controller calling MOTION_CB where the pointer enters and moves, so
 * that a zoom knows where the pointer is. */
void chrono_zoom_controllers_add (GtkWidget *widget,
                                  GCallback  scroll_cb,
                                  GCallback  motion_cb,
                                  gpointer   user_data);

G_END_DECLS
