/* chrono-analysis-advice.c: what a finding's cause is called and what to
 * try for it, from the ledger states its time came from
 *
 * A finding that names a cause gives the advice of that cause: both come
 * from the state that holds most of the time it claimed, never from the
 * rule alone.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gi18n-lib.h>

#include "chrono-analysis-private.h"

ChronoLedgerState
chrono_ledger_main_state (const gint64      state_ns[CHRONO_N_LEDGER_STATES],
                          guint             states,
                          ChronoLedgerState fallback)
{
  ChronoLedgerState best = fallback;
  gint64 most = 0;

  for (guint k = 0; k < CHRONO_N_LEDGER_STATES; k++)
    if ((states & CHRONO_LEDGER_MASK (k)) && state_ns[k] > most)
      {
        best = k;
        most = state_ns[k];
      }
  return best;
}

const char *
chrono_advice_cause (ChronoLedgerState state)
{
  switch (state)
    {
    case CHRONO_LEDGER_COMPUTE:
      return _("computation");
    case CHRONO_LEDGER_COMMUNICATION:
      return _("communication");
    case CHRONO_LEDGER_COPY:
      return _("copies");
    case CHRONO_LEDGER_TRANSPOSE:
      return _("transposes");
    case CHRONO_LEDGER_IDLE_HOST:
      return _("host");
    case CHRONO_LEDGER_IDLE_LAUNCH:
      return _("launch latency");
    case CHRONO_LEDGER_IDLE_SYNC:
      return _("sync");
    case CHRONO_LEDGER_IDLE_PEER:
      return _("peer");
    case CHRONO_LEDGER_IDLE_DATA:
      return _("data loading");
    case CHRONO_LEDGER_IDLE_DMA:
      return _("DMA");
    case CHRONO_LEDGER_IDLE_VECTOR:
      return _("Vector engine");
    case CHRONO_LEDGER_IDLE_SCALAR:
      return _("Scalar engine");
    case CHRONO_LEDGER_IDLE_GPSIMD:
      return _("GpSimd engine");
    case CHRONO_LEDGER_IDLE_COLLECTIVE:
      return _("collective");
    case CHRONO_LEDGER_IDLE_SEMAPHORE:
      return _("semaphore");
    case CHRONO_LEDGER_IDLE_NOT_QUEUED:
      return _("nothing queued");
    case CHRONO_LEDGER_IDLE_OTHER:
    case CHRONO_N_LEDGER_STATES:
    default:
      return _("other");
    }
}

const char *
chrono_advice_for_state (ChronoLedgerState state)
{
  switch (state)
    {
    case CHRONO_LEDGER_COMPUTE:
    case CHRONO_LEDGER_TRANSPOSE:
      return _("The device computed longer than usual: look for an uneven batch (longer sequences, more "
               "padding), recompilation, or a first-step warm-up.");
    case CHRONO_LEDGER_COMMUNICATION:
      return _("Collectives took longer than usual: look for a late peer (the straggler findings with all "
               "ranks loaded), more data moved, or links shared with copies and other collectives.");
    case CHRONO_LEDGER_COPY:
      return _("Copies took longer than usual: look for larger or more transfers (a checkpoint, logging, "
               "moving tensors to the host) and keep them off the step.");
    case CHRONO_LEDGER_IDLE_HOST:
      return _("The host launched the next work late: look at what the host thread did before the launch "
               "(Python overhead, a long operator, a lock), and overlap it with device work (torch.compile, "
               "CUDA graphs, larger batches).");
    case CHRONO_LEDGER_IDLE_LAUNCH:
      return _("The work waited between its launch and its start: launch fewer, larger kernels (fuse "
               "elementwise operations with torch.compile) or capture the sequence in a CUDA graph.");
    case CHRONO_LEDGER_IDLE_SYNC:
      return _("The host waited for the device and then had to launch again: remove the synchronisation "
               "(.item(), .cpu(), cudaDeviceSynchronize) or move it out of the step.");
    case CHRONO_LEDGER_IDLE_PEER:
      return _("The device waited inside a collective for the other ranks: find the rank that arrives last "
               "(the straggler findings with all ranks loaded) and what delays it (data loading, uneven "
               "shards, a slower device or link).");
    case CHRONO_LEDGER_IDLE_DATA:
      return _("The device waited while the host loaded data: load in background workers (DataLoader "
               "num_workers > 0, persistent_workers=True, prefetch_factor) with pin_memory=True so the next "
               "batch is ready when the step starts.");
    case CHRONO_LEDGER_IDLE_DMA:
      return _("The Tensor engine waited for DMA transfers: prefetch and double-buffer the inputs so "
               "transfers overlap computation, and coalesce small transfers.");
    case CHRONO_LEDGER_IDLE_VECTOR:
    case CHRONO_LEDGER_IDLE_SCALAR:
    case CHRONO_LEDGER_IDLE_GPSIMD:
      return _("The Tensor engine waited for another engine's work: fuse or move that work (activations, "
               "elementwise operations, reductions) so it overlaps the matrix multiplications.");
    case CHRONO_LEDGER_IDLE_COLLECTIVE:
      return _("The Tensor engine waited for a collective: overlap communication with computation, or "
               "look for a late peer.");
    case CHRONO_LEDGER_IDLE_SEMAPHORE:
      return _("The Tensor engine waited for a semaphore the profile never shows updated: capture the "
               "engine or queue that signals it to see what held it.");
    case CHRONO_LEDGER_IDLE_NOT_QUEUED:
      return _("Nothing the Tensor engine depended on held it: its instructions were issued late; check "
               "the compiler's scheduling of the operators around the gap.");
    case CHRONO_LEDGER_IDLE_OTHER:
    case CHRONO_N_LEDGER_STATES:
    default:
      return _("The device waited on something the trace does not name (an event from another stream, a "
               "dependency): follow the dependencies of the next work in the graph.");
    }
}
