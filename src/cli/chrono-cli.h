/* chrono-cli.h: the commands of chronoscope-cli
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "chrono-analysis.h"

G_BEGIN_DECLS

int chrono_cli_info    (int argc, char **argv);
int chrono_cli_analyze (int argc, char **argv);
int chrono_cli_example (int argc, char **argv);
int chrono_cli_export  (int argc, char **argv);
int chrono_cli_report  (int argc, char **argv);

/* The analysis thresholds of the settings, or the defaults. */
void chrono_cli_read_thresholds (ChronoAnalysisThresholds *th);

G_END_DECLS
