/* chrono-warning-groups.h: the load's warnings, the same message of
 * several files told once
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "chrono-trace.h"

G_BEGIN_DECLS

typedef struct {
  /* The message; a number that differs between the files stands as the
   * range "LOW–HIGH" of their values. */
  char      *text;
  /* The files it came from (names without folders), in the order they
   * were merged; empty for a message about the load as a whole or of a
   * trace of one file. */
  GPtrArray *files;
  /* Each file's own message, beside FILES. */
  GPtrArray *messages;
  /* One of its files is cut short. */
  gboolean   cut_short;
  /* About the format's own way of writing something, handled in full
   * (chrono_trace_warning_is_quirk): for the Summary page, not a banner. */
  gboolean   quirk;
} ChronoWarningGroup;

void       chrono_warning_group_free (ChronoWarningGroup *group);

/* TRACE's warnings, one group per message: two warnings of different
 * files are the same message when they differ in their numbers only.
 * Most severe first: the messages of files that are cut short, then
 * those about the load as a whole (files left out, clocks not aligned),
 * then the rest, then the quirks; each in the order they were reported. */
GPtrArray *chrono_warning_groups_new (ChronoTrace *trace);
/* Whether any of GROUPS is not a quirk: something a person must know. */
gboolean   chrono_warning_groups_must_know (GPtrArray *groups);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ChronoWarningGroup, chrono_warning_group_free)

G_END_DECLS
