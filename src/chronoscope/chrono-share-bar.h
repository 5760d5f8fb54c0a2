/* chrono-share-bar.h: a thin bar split into coloured shares of a whole
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define CHRONO_TYPE_SHARE_BAR (chrono_share_bar_get_type ())
G_DECLARE_FINAL_TYPE (ChronoShareBar, chrono_share_bar, CHRONO, SHARE_BAR, GtkWidget)

GtkWidget *chrono_share_bar_new       (void);
/* VALUES[i] of TOTAL drawn in COLORS[i], left to right; what is left of
 * TOTAL stays empty. */
void       chrono_share_bar_set_parts (ChronoShareBar *self,
                                       const double   *values,
                                       const GdkRGBA  *colors,
                                       guint           n_parts,
                                       double          total);

G_END_DECLS
