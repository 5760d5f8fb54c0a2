/* chrono-source.h: the bytes of a trace file, decompressed on a worker thread
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

typedef enum {
  CHRONO_COMPRESSION_NONE,
  CHRONO_COMPRESSION_GZIP,
  CHRONO_COMPRESSION_ZSTD,
  CHRONO_COMPRESSION_ZIP,
} ChronoCompression;

typedef struct _ChronoSource ChronoSource;

/* Opens PATH, sniffs the compression from its first bytes (never from the
 * name), and for compressed input starts decompressing on its own thread.
 * Plain files are memory-mapped. */
ChronoSource     *chrono_source_open            (const char    *path,
                                                 GError       **error);
/* The same over bytes in memory (tests, fuzzing); BYTES is referenced. */
ChronoSource     *chrono_source_new_for_bytes   (GBytes        *bytes,
                                                 GError       **error);
ChronoSource     *chrono_source_ref             (ChronoSource  *self);
void              chrono_source_unref           (ChronoSource  *self);

/* Start of the decompressed bytes. The pointer never moves while the source
 * lives, and the bytes before chrono_source_get_available() never change.
 * Compressed sources keep at least 64 readable bytes after the available
 * ones, zero once finished; plain (mapped) sources guarantee no slack. */
const guint8     *chrono_source_get_data        (ChronoSource  *self);
/* Bytes decompressed so far (thread-safe). */
gsize             chrono_source_get_available   (ChronoSource  *self);
/* Blocks until more than AT_LEAST bytes are available or decompression has
 * ended; returns the bytes available and sets FINISHED when no more will
 * come (end of data, error or cancellation). */
gsize             chrono_source_wait            (ChronoSource  *self,
                                                 gsize          at_least,
                                                 gboolean      *finished);
/* After FINISHED: whether decompression stopped on an error (corrupt or
 * truncated compressed data, G_IO_ERROR_CANCELLED after a cancel): returns
 * TRUE and sets ERROR, naming the file and offset. The bytes before the
 * error stay usable. */
gboolean          chrono_source_get_error       (ChronoSource  *self,
                                                 GError       **error);
/* Stops the worker early; waiters wake with FINISHED set. */
void              chrono_source_cancel          (ChronoSource  *self);

ChronoCompression chrono_source_get_compression (ChronoSource  *self);
const char       *chrono_compression_to_string  (ChronoCompression compression);
/* NULL for sources made from bytes. */
const char       *chrono_source_get_path        (ChronoSource  *self);
/* The folder of the unlinked file that holds the decompressed text; NULL
 * when the text is the mapped file itself or (small ones) in memory. */
const char       *chrono_source_get_text_dir    (ChronoSource  *self);
/* Bytes read from the file so far and the file's size: for progress. */
guint64           chrono_source_get_file_read   (ChronoSource  *self);
guint64           chrono_source_get_file_size   (ChronoSource  *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ChronoSource, chrono_source_unref)

G_END_DECLS
