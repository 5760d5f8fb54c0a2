/* chrono-comparison-setup.h: what a comparison is of, as a person chose
 * it (B, the alignment, B stretched or not), and its section of A's
 * project file
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

#include "chrono-comparison.h"
#include "chrono-sidecar.h"

G_BEGIN_DECLS

typedef struct {
  char                *path_b;   /* B's file or folder */
  ChronoCompareOptions options;  /* OPTIONS.marker points to MARKER */
  char                *marker;
  gboolean             stretch;
} ChronoComparisonSetup;

#define CHRONO_TYPE_COMPARISON_SETUP (chrono_comparison_setup_get_type ())
GType                  chrono_comparison_setup_get_type (void);

/* OPTIONS NULL for the defaults. */
ChronoComparisonSetup *chrono_comparison_setup_new       (const char                  *path_b,
                                                          const ChronoCompareOptions  *options,
                                                          gboolean                     stretch);
ChronoComparisonSetup *chrono_comparison_setup_copy      (const ChronoComparisonSetup *self);
void                   chrono_comparison_setup_free      (ChronoComparisonSetup       *self);

JsonNode              *chrono_comparison_setup_to_json   (const ChronoComparisonSetup *self);
ChronoComparisonSetup *chrono_comparison_setup_new_from_json (JsonNode                *node,
                                                          GError                     **error);

/* The project file's comparison: NULL without one (no error), or when
 * it is not the shape written (ERROR says why). */
ChronoComparisonSetup *chrono_comparison_setup_load      (ChronoSidecar               *sidecar,
                                                          GError                     **error);
/* Writes SELF, or NULL for none, and saves the file atomically. */
gboolean               chrono_comparison_setup_save      (const ChronoComparisonSetup *self,
                                                          ChronoSidecar               *sidecar,
                                                          GError                     **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ChronoComparisonSetup, chrono_comparison_setup_free)

G_END_DECLS
