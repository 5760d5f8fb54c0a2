/* chrono-load-banner.h: what a load left out, over the timeline and the
 * findings: an empty trace, a file cut short, events not shown
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "chrono-trace.h"

G_BEGIN_DECLS

#define CHRONO_TYPE_LOAD_BANNER (chrono_load_banner_get_type ())
G_DECLARE_FINAL_TYPE (ChronoLoadBanner, chrono_load_banner, CHRONO, LOAD_BANNER, GtkWidget)

/* What the banner says of a trace. */
typedef enum {
  CHRONO_LOAD_COMPLETE,   /* nothing to say: the banner hides */
  CHRONO_LOAD_LOSSY,      /* events read but not shown */
  CHRONO_LOAD_TRUNCATED,  /* the file ends early */
  CHRONO_LOAD_EMPTY,      /* nothing the timeline shows */
} ChronoLoadState;

GtkWidget       *chrono_load_banner_new       (ChronoTrace      *trace);
ChronoLoadState  chrono_load_banner_get_state (ChronoLoadBanner *self);

G_END_DECLS
