/* neuron-gen-tool.c: writes a Neuron profile folder from the documented schemas
 *
 * Usage: neuron-gen DIR [--size 1GB] [--blocks N] [--string-numbers]
 *                       [--singular-key] [--damage KIND]
 *                       [--plant LIST [--instance trn1|trn2|trn3|inf2] [--steps N] [--executions N]]
 *                       [--parquet [--codec C] [--pages 1|2] [--row-group N] [--no-dictionary]
 *                        [--parquet-damage truncated-footer|bad-page-header|wrong-type]]
 *
 * DIR gets device_profile_model_1.json, system_profile.json and trace.json;
 * with --parquet also DIR/tables, the device profile as Neuron Explorer's
 * Parquet tables (through node and parquet-wasm). With --plant the device
 * profile is a sequence of planted bottlenecks (compute, dma-bound,
 * engine-bound, small-dma, spill, transpose, collective, throttle,
 * late-start, ...; see neuron-gen-plant.c) and DIR/truth.json says what
 * was planted. What was written is printed as one JSON object.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdio.h>
#include <string.h>

#include <glib/gstdio.h>

#include "chrono-format.h"
#include "neuron-gen.h"

int
main (int    argc,
      char **argv)
{
  g_autofree char *size = NULL;
  g_autofree char *damage = NULL;
  g_autofree char *plant = NULL, *instance = NULL;
  gint steps = 0, executions = 0;
  gint blocks = 0;
  gboolean string_numbers = FALSE, singular = FALSE;
  gboolean parquet = FALSE, plain = FALSE;
  g_autofree char *codec = NULL, *pq_damage = NULL;
  gint pages = 1, row_group = 0;
  g_auto(GStrv) rest = NULL;
  g_autofree char *phases = g_strjoinv (", ", (char **) neuron_gen_plant_names);
  g_autofree char *plant_help = g_strdup_printf ("Plant these phases, comma-separated: %s", phases);
  const GOptionEntry entries[] = {
    { "size", 0, 0, G_OPTION_ARG_STRING, &size, "Grow the device profile to about SIZE (1GB, 20MB)", "SIZE" },
    { "blocks", 0, 0, G_OPTION_ARG_INT, &blocks, "Number of instruction blocks", "N" },
    { "string-numbers", 0, 0, G_OPTION_ARG_NONE, &string_numbers, "Write numbers as strings", NULL },
    { "singular-key", 0, 0, G_OPTION_ARG_NONE, &singular, "System profile with \"trace_event\"", NULL },
    { "damage", 0, 0, G_OPTION_ARG_STRING, &damage, "truncated, wrong-type, missing-key, not-json, duration-string, label-number, deps-object, id-array or dma-object", "KIND" },
    { "plant", 0, 0, G_OPTION_ARG_STRING, &plant, plant_help, "LIST" },
    { "instance", 0, 0, G_OPTION_ARG_STRING, &instance, "Hardware of the planted profile: trn1, trn2 (default), trn3 or inf2", "NAME" },
    { "steps", 0, 0, G_OPTION_ARG_INT, &steps, "Tensor steps per planted phase (default 16)", "N" },
    { "executions", 0, 0, G_OPTION_ARG_INT, &executions, "Run the planted phases in N executions (default 1)", "N" },
    { "parquet", 0, 0, G_OPTION_ARG_NONE, &parquet, "Also the Parquet tables, in DIR/tables and DIR/system-tables", NULL },
    { "codec", 0, 0, G_OPTION_ARG_STRING, &codec, "Parquet codec: none, snappy, gzip or zstd", "CODEC" },
    { "pages", 0, 0, G_OPTION_ARG_INT, &pages, "Parquet data page version, 1 or 2", "V" },
    { "row-group", 0, 0, G_OPTION_ARG_INT, &row_group, "Rows per Parquet row group", "N" },
    { "no-dictionary", 0, 0, G_OPTION_ARG_NONE, &plain, "Plain Parquet columns", NULL },
    { "parquet-damage", 0, 0, G_OPTION_ARG_STRING, &pq_damage, "truncated-footer, bad-page-header or wrong-type", "KIND" },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &rest, NULL, "DIR" },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("DIR — write a Neuron profile folder");
  g_autoptr(GError) error = NULL;
  g_autofree char *device = NULL, *system = NULL, *torch = NULL;
  NeuronGenOptions o;
  NeuronGenCounts c;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error) || rest == NULL || rest[1] != NULL)
    {
      g_printerr ("neuron-gen: %s\n", error ? error->message : "one output folder expected");
      return 2;
    }
  neuron_gen_options_init (&o);
  if (size && !chrono_format_parse_size (size, &o.target_bytes, &error))
    {
      g_printerr ("neuron-gen: %s\n", error->message);
      return 2;
    }
  if (blocks > 0)
    o.n_blocks = blocks;
  o.string_numbers = string_numbers;
  o.singular_key = singular;
  if (damage)
    {
      guint i;

      for (i = 1; neuron_gen_damage_names[i] != NULL && strcmp (neuron_gen_damage_names[i], damage) != 0; i++)
        ;
      if (neuron_gen_damage_names[i] == NULL)
        {
          g_printerr ("neuron-gen: unknown damage %s\n", damage);
          return 2;
        }
      o.damage = (NeuronGenDamage) i;
    }
  if (g_mkdir_with_parents (rest[0], 0755) != 0)
    {
      g_printerr ("neuron-gen: cannot make %s\n", rest[0]);
      return 1;
    }
  o.plant = plant;
  o.instance = instance;
  o.plant_steps = steps > 0 ? (guint) steps : 0;
  o.plant_executions = executions > 0 ? (guint) executions : 0;
  device = g_build_filename (rest[0], "device_profile_model_1.json", NULL);
  system = g_build_filename (rest[0], "system_profile.json", NULL);
  torch = g_build_filename (rest[0], "trace.json", NULL);
  if (!neuron_gen_write_device (device, &o, &c, &error) ||
      !neuron_gen_write_system (system, &o, &c, &error) ||
      !neuron_gen_write_torch (torch, &o, &c, &error))
    {
      g_printerr ("neuron-gen: %s\n", error->message);
      return 1;
    }
  if (plant)
    {
      g_autofree char *truth = g_build_filename (rest[0], "truth.json", NULL);

      if (!neuron_gen_write_truth (truth, &o, &error))
        {
          g_printerr ("neuron-gen: %s\n", error->message);
          return 1;
        }
    }
  if (parquet)
    {
      static const char * const pq_names[] = { "", "truncated-footer", "bad-page-header", "wrong-type" };
      g_autofree char *tables = g_build_filename (rest[0], "tables", NULL);
      g_autofree char *system_tables = g_build_filename (rest[0], "system-tables", NULL);
      NeuronGenParquetOptions po;
      g_autofree char *why = NULL;
      guint i = 0;

      neuron_gen_parquet_options_init (&po);
      po.codec = codec ? codec : po.codec;
      po.pages = (guint) pages;
      po.row_group = row_group > 0 ? (guint) row_group : po.row_group;
      po.dictionary = !plain;
      if (pq_damage)
        {
          for (i = 1; i < G_N_ELEMENTS (pq_names) && strcmp (pq_names[i], pq_damage) != 0; i++)
            ;
          if (i == G_N_ELEMENTS (pq_names))
            {
              g_printerr ("neuron-gen: unknown Parquet damage %s\n", pq_damage);
              return 2;
            }
          po.damage = (NeuronGenParquetDamage) i;
        }
      if (!neuron_gen_parquet_available (&why))
        {
          g_printerr ("neuron-gen: %s\n", why);
          return 1;
        }
      if (!neuron_gen_write_parquet (device, tables, &po, NULL, &error) ||
          !neuron_gen_write_parquet (system, system_tables, &po, NULL, &error))
        {
          g_printerr ("neuron-gen: %s\n", error->message);
          return 1;
        }
    }
  printf ("{\"bytes\": %" G_GUINT64_FORMAT ", \"instructions\": %" G_GUINT64_FORMAT
          ", \"dma\": %" G_GUINT64_FORMAT ", \"dependencies\": %" G_GUINT64_FORMAT
          ", \"dangling\": %" G_GUINT64_FORMAT ", \"semaphore_edges\": %" G_GUINT64_FORMAT
          ", \"damage_at\": %" G_GUINT64_FORMAT "}\n",
          c.bytes, c.instructions, c.dma, c.dep_edges + c.semaphore_edges,
          c.dangling_deps, c.semaphore_edges, c.damage_at);
  return 0;
}
