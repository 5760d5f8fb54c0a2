/* chrono-sidecar.h: the state a person makes for one trace (pinned and
 * hidden tracks, ...), kept in a small JSON project file beside, never
 * in, the trace
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

#define CHRONO_SIDECAR_VERSION 1

#define CHRONO_SIDECAR_ERROR (chrono_sidecar_error_quark ())

typedef enum {
  CHRONO_SIDECAR_ERROR_INVALID,   /* not JSON, or not the shape we write */
  CHRONO_SIDECAR_ERROR_VERSION,   /* written by another version */
} ChronoSidecarError;

GQuark chrono_sidecar_error_quark (void);

/* Sections of the file, one per feature; a section this version does not
 * know is kept as it was. */
#define CHRONO_TYPE_SIDECAR (chrono_sidecar_get_type ())
G_DECLARE_FINAL_TYPE (ChronoSidecar, chrono_sidecar, CHRONO, SIDECAR, GObject)

/* The sidecar of the trace at TRACE_PATH, in DIR, or when DIR is NULL in
 * the user data folder: the trace's own folder may be read-only. Nothing
 * is read until chrono_sidecar_load(). */
ChronoSidecar *chrono_sidecar_new          (const char     *trace_path,
                                            const char     *dir);
const char    *chrono_sidecar_get_path     (ChronoSidecar  *self);
/* Reads the file. A missing file, or one written for the trace before it
 * changed on disk, loads as empty. An unreadable one fails and is kept:
 * the next save moves it aside to PATH.bak first. */
gboolean       chrono_sidecar_load         (ChronoSidecar  *self,
                                            GError        **error);
/* (transfer none) (nullable) */
JsonNode      *chrono_sidecar_get_section  (ChronoSidecar  *self,
                                            const char     *name);
/* Takes NODE. */
void           chrono_sidecar_set_section  (ChronoSidecar  *self,
                                            const char     *name,
                                            JsonNode       *node);
/* Writes the file atomically (a temporary file renamed over it). */
gboolean       chrono_sidecar_save         (ChronoSidecar  *self,
                                            GError        **error);

G_END_DECLS
