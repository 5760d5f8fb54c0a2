/* chrono-text-layout.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "chrono-text-layout.h"

void
chrono_text_layout_disable_ligatures (PangoLayout *layout)
{
  PangoAttrList *old = pango_layout_get_attributes (layout);
  g_autoptr(PangoAttrList) attrs = old != NULL ? pango_attr_list_copy (old) : pango_attr_list_new ();

  pango_attr_list_insert (attrs, pango_attr_font_features_new ("liga=0, clig=0, dlig=0"));
  pango_layout_set_attributes (layout, attrs);
}
