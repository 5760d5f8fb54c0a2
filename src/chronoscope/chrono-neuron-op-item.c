/* chrono-neuron-op-item.c: one row of a NeuronCore's operator table
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "chrono-neuron-op-item.h"

struct _ChronoNeuronOpItem
{
  GObject               parent_instance;
  ChronoNeuronOp        op;       /* its name owned */
  guint                 core;
  char                 *core_name;
};

G_DEFINE_FINAL_TYPE (ChronoNeuronOpItem, chrono_neuron_op_item, G_TYPE_OBJECT)

static void
chrono_neuron_op_item_finalize (GObject *object)
{
  ChronoNeuronOpItem *self = CHRONO_NEURON_OP_ITEM (object);

  g_free ((char *) self->op.name);
  g_free (self->core_name);
  G_OBJECT_CLASS (chrono_neuron_op_item_parent_class)->finalize (object);
}

static void
chrono_neuron_op_item_class_init (ChronoNeuronOpItemClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = chrono_neuron_op_item_finalize;
}

static void
chrono_neuron_op_item_init (ChronoNeuronOpItem *self)
{
}

ChronoNeuronOpItem *
chrono_neuron_op_item_new (const ChronoNeuronOp *op,
                           guint                 core,
                           const char           *core_name)
{
  ChronoNeuronOpItem *self = g_object_new (CHRONO_TYPE_NEURON_OP_ITEM, NULL);

  self->op = *op;
  self->op.name = g_strdup (op->name);
  self->core = core;
  self->core_name = g_strdup (core_name);
  return self;
}

const ChronoNeuronOp *
chrono_neuron_op_item_get_op (ChronoNeuronOpItem *self)
{
  g_return_val_if_fail (CHRONO_IS_NEURON_OP_ITEM (self), NULL);
  return &self->op;
}

guint
chrono_neuron_op_item_get_core (ChronoNeuronOpItem *self)
{
  g_return_val_if_fail (CHRONO_IS_NEURON_OP_ITEM (self), 0);
  return self->core;
}

const char *
chrono_neuron_op_item_get_core_name (ChronoNeuronOpItem *self)
{
  g_return_val_if_fail (CHRONO_IS_NEURON_OP_ITEM (self), NULL);
  return self->core_name;
}
