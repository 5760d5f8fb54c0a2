/* test-neuron-ledger.c: a NeuronCore's ledger follows its Tensor engine,
 * and each gap's cause is found along its dependency chain
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "chrono-analysis.h"
#include "chrono-loader.h"
#include "chrono-neuron-ledger.h"

typedef struct {
  ChronoTrace    *trace;
  ChronoAnalysis *analysis;
  const ChronoLedgerRow    *row;     /* the core's whole window */
  const ChronoNeuronLedger *ledger;
} Fixture;

/* A device profile of one NeuronCore from its tables' records. */
static void
fixture_load (Fixture    *f,
              const char *instructions,
              const char *dma)
{
  g_autofree char *json = g_strdup_printf ("{\"instruction\": [%s], \"dma\": [%s], \"summary\": [{\"nc_idx\": \"0\"}]}",
                                           instructions, dma ? dma : "");
  gsize len = strlen (json);
  g_autoptr(GBytes) data = g_bytes_new_take (g_steal_pointer (&json), len);
  g_autoptr(GError) error = NULL;

  f->trace = chrono_trace_load_bytes (data, "device_profile_model_1.json", &error);
  g_assert_no_error (error);
  f->analysis = chrono_analysis_run (&f->trace, 1, NULL, NULL, &error);
  g_assert_no_error (error);
  f->row = NULL;
  for (guint i = 0; i < chrono_analysis_get_n_ledger_rows (f->analysis); i++)
    {
      const ChronoLedgerRow *r = chrono_analysis_get_ledger_row (f->analysis, i);
      if (r->neuron_core && r->step < 0)
        f->row = r;
    }
  g_assert_nonnull (f->row);
  f->ledger = chrono_analysis_get_neuron_ledger (f->analysis, f->row->breakdown);
  g_assert_nonnull (f->ledger);
}

static void
fixture_clear (Fixture *f)
{
  g_clear_object (&f->analysis);
  g_clear_object (&f->trace);
}

/* The states sum to the window, and the GPU states stay empty. */
static void
assert_sums (const Fixture *f)
{
  gint64 total = 0;

  for (guint k = 0; k < CHRONO_N_LEDGER_STATES; k++)
    {
      if (!chrono_ledger_state_is_neuron (k))
        g_assert_cmpint (f->row->state_ns[k], ==, 0);
      total += f->row->state_ns[k];
    }
  g_assert_cmpint (total, ==, f->row->end_ns - f->row->start_ns);
}

static const ChronoNeuronGap *
only_gap (const Fixture *f)
{
  g_assert_cmpuint (chrono_neuron_ledger_get_n_gaps (f->ledger), ==, 1);
  return chrono_neuron_ledger_get_gap (f->ledger, 0);
}

static ChronoNeuronUnit
link_unit (const Fixture         *f,
           const ChronoNeuronGap *gap,
           guint                  k)
{
  g_assert_cmpuint (k, <, gap->n_links);
  return chrono_neuron_ledger_get_link (f->ledger, gap->first_link + k)->unit;
}

/* A DMA completes a semaphore that a Sync instruction waits for; the
 * Tensor instruction depends on the Sync one: the gap waited for the DMA. */
static void
test_sync_pass_through (void)
{
  Fixture f;
  const ChronoNeuronGap *gap;

  fixture_load (&f,
                "{\"timestamp\": 0, \"duration\": 100, \"label\": \"Tensor\", \"opcode\": \"MATMUL\", \"id\": 1},"
                "{\"timestamp\": 1000, \"duration\": 10, \"label\": \"Sync\", \"opcode\": \"EVENT_SEMAPHORE\", \"id\": 2,"
                " \"operands\": \"$S[20]>=1 S[3] (Sync)++@complete\"},"
                "{\"timestamp\": 1050, \"duration\": 100, \"label\": \"Tensor\", \"opcode\": \"MATMUL\", \"id\": 3,"
                " \"inst_dep_ids\": [2]}",
                "{\"timestamp\": 100, \"duration\": 900, \"subgroup\": \"qSyncIO0\","
                " \"semaphore_id\": \"S[20] (qSyncIO0)\", \"transfer_size\": 65536}");
  assert_sums (&f);
  g_assert_cmpint (f.row->state_ns[CHRONO_LEDGER_COMPUTE], ==, 200);
  g_assert_cmpint (f.row->state_ns[CHRONO_LEDGER_IDLE_DMA], ==, 950);
  gap = only_gap (&f);
  g_assert_cmpint (gap->start_ns, ==, 100);
  g_assert_cmpint (gap->end_ns, ==, 1050);
  g_assert_cmpint (gap->cause, ==, CHRONO_LEDGER_IDLE_DMA);
  g_assert_false (gap->tail);
  /* The chain: the Tensor instruction, the Sync one, the DMA. */
  g_assert_cmpuint (gap->n_links, ==, 3);
  g_assert_cmpint (link_unit (&f, gap, 0), ==, CHRONO_NEURON_UNIT_TENSOR);
  g_assert_cmpint (link_unit (&f, gap, 1), ==, CHRONO_NEURON_UNIT_SYNC);
  g_assert_cmpint (link_unit (&f, gap, 2), ==, CHRONO_NEURON_UNIT_DMA);
  g_assert_cmpint (chrono_neuron_ledger_get_link (f.ledger, gap->first_link + 2)->end_ns, ==, 1000);
  g_assert_cmpuint (chrono_neuron_ledger_gap_at (f.ledger, 500), ==, 0);
  g_assert_cmpuint (chrono_neuron_ledger_gap_at (f.ledger, 50), ==, G_MAXUINT);
  fixture_clear (&f);
}

/* A wait on a semaphore nothing in the profile updates, against one whose
 * update came before the gap: held by a semaphore, against issued late. */
static void
test_semaphore_unresolved (void)
{
  Fixture f;

  fixture_load (&f,
                "{\"timestamp\": 0, \"duration\": 100, \"label\": \"Tensor\", \"opcode\": \"MATMUL\", \"id\": 1},"
                "{\"timestamp\": 500, \"duration\": 100, \"label\": \"Tensor\", \"opcode\": \"MATMUL\", \"id\": 2,"
                " \"operands\": \"$S[30]>=1\"}",
                NULL);
  assert_sums (&f);
  g_assert_cmpint (only_gap (&f)->cause, ==, CHRONO_LEDGER_IDLE_SEMAPHORE);
  g_assert_cmpint (f.row->state_ns[CHRONO_LEDGER_IDLE_SEMAPHORE], ==, 400);
  fixture_clear (&f);

  fixture_load (&f,
                "{\"timestamp\": 0, \"duration\": 100, \"label\": \"Tensor\", \"opcode\": \"MATMUL\", \"id\": 1},"
                "{\"timestamp\": 0, \"duration\": 50, \"label\": \"Vector\", \"opcode\": \"TENSOR_TENSOR\", \"id\": 3,"
                " \"operands\": \"S[30] (Vector)++@complete\"},"
                "{\"timestamp\": 500, \"duration\": 100, \"label\": \"Tensor\", \"opcode\": \"MATMUL\", \"id\": 2,"
                " \"operands\": \"$S[30]>=1\"}",
                NULL);
  assert_sums (&f);
  g_assert_cmpint (only_gap (&f)->cause, ==, CHRONO_LEDGER_IDLE_NOT_QUEUED);
  g_assert_cmpint (f.row->state_ns[CHRONO_LEDGER_IDLE_NOT_QUEUED], ==, 400);
  fixture_clear (&f);
}

/* After the Tensor engine's last instruction the window waits for the
 * work that ends last; before its first, for what that one depended on. */
static void
test_tail_and_head (void)
{
  Fixture f;
  const ChronoNeuronGap *gap;

  fixture_load (&f,
                "{\"timestamp\": 0, \"duration\": 300, \"label\": \"Scalar\", \"opcode\": \"ACTIVATE\", \"id\": 1},"
                "{\"timestamp\": 300, \"duration\": 100, \"label\": \"Tensor\", \"opcode\": \"MATMUL\", \"id\": 2,"
                " \"inst_dep_ids\": [1]},"
                "{\"timestamp\": 350, \"duration\": 650, \"label\": \"GpSimd\", \"opcode\": \"IOTA\", \"id\": 3}",
                NULL);
  assert_sums (&f);
  g_assert_cmpuint (chrono_neuron_ledger_get_n_gaps (f.ledger), ==, 2);
  gap = chrono_neuron_ledger_get_gap (f.ledger, 0);
  g_assert_cmpint (gap->cause, ==, CHRONO_LEDGER_IDLE_SCALAR);
  g_assert_false (gap->tail);
  gap = chrono_neuron_ledger_get_gap (f.ledger, 1);
  g_assert_cmpint (gap->start_ns, ==, 400);
  g_assert_cmpint (gap->end_ns, ==, 1000);
  g_assert_cmpint (gap->cause, ==, CHRONO_LEDGER_IDLE_GPSIMD);
  g_assert_true (gap->tail);
  g_assert_cmpint (f.row->state_ns[CHRONO_LEDGER_IDLE_SCALAR], ==, 300);
  g_assert_cmpint (f.row->state_ns[CHRONO_LEDGER_COMPUTE], ==, 100);
  g_assert_cmpint (f.row->state_ns[CHRONO_LEDGER_IDLE_GPSIMD], ==, 600);
  fixture_clear (&f);
}

/* Transposes alone on the Tensor engine, and under a matrix instruction. */
static void
test_transpose (void)
{
  Fixture f;

  fixture_load (&f,
                "{\"timestamp\": 0, \"duration\": 100, \"label\": \"Tensor\", \"opcode\": \"TRANSPOSE\", \"id\": 1},"
                "{\"timestamp\": 50, \"duration\": 100, \"label\": \"TensorMatrix\", \"opcode\": \"MATMUL\", \"id\": 2},"
                "{\"timestamp\": 120, \"duration\": 80, \"label\": \"Tensor\", \"opcode\": \"TRANSPOSE\", \"id\": 3}",
                NULL);
  assert_sums (&f);
  g_assert_cmpint (f.row->state_ns[CHRONO_LEDGER_TRANSPOSE], ==, 100);
  g_assert_cmpint (f.row->state_ns[CHRONO_LEDGER_COMPUTE], ==, 100);
  g_assert_cmpuint (chrono_neuron_ledger_get_n_gaps (f.ledger), ==, 0);
  fixture_clear (&f);
}

/* Of several predecessors, the one that ended last holds the Tensor
 * engine; one that ended before the gap holds nothing. */
static void
test_latest_predecessor (void)
{
  Fixture f;
  const ChronoNeuronGap *gap;

  fixture_load (&f,
                "{\"timestamp\": 0, \"duration\": 100, \"label\": \"Tensor\", \"opcode\": \"MATMUL\", \"id\": 1},"
                "{\"timestamp\": 0, \"duration\": 80, \"label\": \"GpSimd\", \"opcode\": \"IOTA\", \"id\": 4},"
                "{\"timestamp\": 100, \"duration\": 300, \"label\": \"Vector\", \"opcode\": \"TENSOR_TENSOR\", \"id\": 2},"
                "{\"timestamp\": 100, \"duration\": 600, \"label\": \"Scalar\", \"opcode\": \"ACTIVATE\", \"id\": 3},"
                "{\"timestamp\": 700, \"duration\": 100, \"label\": \"Tensor\", \"opcode\": \"MATMUL\", \"id\": 5,"
                " \"inst_dep_ids\": [4, 2, 3]}",
                NULL);
  assert_sums (&f);
  gap = only_gap (&f);
  g_assert_cmpint (gap->cause, ==, CHRONO_LEDGER_IDLE_SCALAR);
  g_assert_cmpuint (gap->n_links, ==, 2);
  g_assert_cmpint (link_unit (&f, gap, 1), ==, CHRONO_NEURON_UNIT_SCALAR);
  fixture_clear (&f);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/neuron-ledger/sync-pass-through", test_sync_pass_through);
  g_test_add_func ("/neuron-ledger/semaphore-unresolved", test_semaphore_unresolved);
  g_test_add_func ("/neuron-ledger/tail-and-head", test_tail_and_head);
  g_test_add_func ("/neuron-ledger/transpose", test_transpose);
  g_test_add_func ("/neuron-ledger/latest-predecessor", test_latest_predecessor);
  return g_test_run ();
}
