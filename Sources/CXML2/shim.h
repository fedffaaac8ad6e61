#include <libxml/xmlversion.h>
/* libxml2's encoding.h includes ICU's headers when libxml2 was built with ICU; they clash with the
   ICU copy Foundation carries (same names, other definitions). Nothing here touches an encoding
   handler (the one struct whose layout ICU changes), so the tree and parser API is read without them. */
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/tree.h>

/* xmlFree is a global function pointer (a macro in some builds): one call Swift can see. */
static inline void cxml_free(void *p) { if (p) xmlFree(p); }
