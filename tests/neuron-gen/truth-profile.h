/* truth-profile.h: a planted Neuron profile read back with json-glib,
 * and its NeuronCore time ledger computed again from the rows
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

extern const char * const states[];
enum { S_COMPUTE, S_TRANSPOSE, S_DMA, S_VECTOR, S_SCALAR, S_GPSIMD, S_COLLECTIVE, S_SEMAPHORE,
       S_NOT_QUEUED, N_STATES, S_SYNC = N_STATES };

/* Something that ran, with what it waited for. */
typedef struct {
  gint64   start, end;
  guint    cls;              /* a state, or S_SYNC */
  gboolean tensor, transpose;
  gboolean unheld;           /* waits on a semaphore no row of the profile raised */
  GArray  *preds;            /* guint indices into the activities */
} Activity;

typedef struct {
  char       *dir;
  JsonParser *device, *truth;
  JsonObject *d, *t;
  GArray     *acts;          /* Activity */
  gint64      ws, we;        /* the window */
  gint64      ledger[N_STATES];  /* over the whole window */
  GArray     *exec_ledgers;  /* gint64[N_STATES] per execution */
  GArray     *phases;        /* gint64[N_STATES] per phase of the truth */
  GArray     *busy;          /* the Tensor engine's busy intervals, gint64 pairs */
} Profile;

JsonArray  *table         (Profile    *p,
                           const char *key);
JsonObject *row           (JsonArray  *a,
                           guint       i);
gint64      num           (JsonObject *o,
                           const char *key);
/* Writes the planted profile PLANT into a new folder, reads it back and
 * computes its ledger. */
void        profile_load  (Profile    *p,
                           const char *plant,
                           const char *instance,
                           guint       steps,
                           guint       n_executions,
                           guint64     target_bytes);
void        profile_clear (Profile    *p);

G_END_DECLS
