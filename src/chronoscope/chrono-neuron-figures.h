/* chrono-neuron-figures.h: the rows of the NeuronCores page that show a
 * window's figures from the analysis report: utilisation against the
 * profiler's own values, each engine's active share, DMA and HBM traffic
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* A number of OBJECT (nullable), NAN when null or missing. */
gdouble    chrono_neuron_figures_number     (JsonObject *object,
                                             const char *key);
/* An action row whose title is plain text. */
GtkWidget *chrono_neuron_figures_row_new    (const char *title,
                                             const char *subtitle);
void       chrono_neuron_figures_clear      (GtkListBox *list);

/* Total time, HFU, MFU, MBU, arithmetic intensity and throttling of
 * WINDOW, each beside PROFILER's (nullable) and marked where they differ
 * by more than 2 %. */
void       chrono_neuron_figures_fill       (GtkListBox *list,
                                             JsonObject *window,
                                             JsonObject *profiler);
/* Each engine's active share of WINDOW. */
void       chrono_neuron_figures_fill_engines (GtkListBox *list,
                                               JsonObject *window);
/* WINDOW's transfers, their sizes, HBM traffic and spills. */
void       chrono_neuron_figures_fill_dma   (GtkListBox *list,
                                             JsonObject *window);

G_END_DECLS
