/* chrono-text-file.h: an unlinked temporary file that holds decompressed text
 *
 * A compressed trace's text is written into such a file through a shared
 * mapping, so that its pages are the page cache's, which the kernel can
 * write back and drop under pressure like a plain file's, rather than
 * anonymous memory, which it cannot drop without swap.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _ChronoTextFile ChronoTextFile;

/* Creates the file in the first folder of the user's cache folder
 * (chronoscope/ in it) and g_get_tmp_dir() that has room for NEEDED bytes
 * (0 when unknown: then the one with most room). Fails with
 * G_IO_ERROR_NO_SPACE, naming DISPLAY_NAME, the folder, what is needed and
 * what is free, when none has room. */
ChronoTextFile *chrono_text_file_new      (const char      *display_name,
                                           guint64          needed,
                                           GError         **error);
void            chrono_text_file_free     (ChronoTextFile  *self);

/* Gives bytes [OFFSET, OFFSET + LENGTH) of the file disk blocks and maps
 * them writable at BASE + OFFSET, over BASE's reserved address space.
 * Blocks are allocated first so that running out of room is an error
 * here, never a SIGBUS on a later write. */
gboolean        chrono_text_file_commit   (ChronoTextFile  *self,
                                           guint8          *base,
                                           gsize            offset,
                                           gsize            length,
                                           GError         **error);
/* Gives back the blocks from USED on (the text ended before them). */
void            chrono_text_file_trim     (ChronoTextFile  *self,
                                           gsize            used);
/* The folder the file was created in. */
const char     *chrono_text_file_get_dir  (ChronoTextFile  *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ChronoTextFile, chrono_text_file_free)

G_END_DECLS
