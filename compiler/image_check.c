/*
 * image_check.c — an image's name, type and content, checked before any
 * output carries it: the signature bytes of PNG and JPEG, an SVG read by
 * libxml2 (no network, no entities) and walked for anything that runs or
 * fetches; the SHA-256 of the bytes by Nettle.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <nettle/sha2.h>

#include "image_check.h"

const char *image_path_problem(const char *path)
{
    if (path[0] == '/')
        return "a figure's path is relative to the quiz file";
    for (const char *s = path; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
              *s == '.' || *s == '_' || *s == '-' || *s == '/'))
            return "a figure's path holds only letters, digits, '.', '_', '-' and '/'";
    for (const char *s = path; (s = strstr(s, "..")); s += 2)
        if ((s == path || s[-1] == '/') && (s[2] == '/' || !s[2]))
            return "a figure's path stays inside the quiz's folder (no '..')";
    return NULL;
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n > m && strcasecmp(s + n - m, suffix) == 0;
}

const char *image_mime_for_name(const char *path)
{
    if (ends_with(path, ".png"))
        return "image/png";
    if (ends_with(path, ".jpg") || ends_with(path, ".jpeg"))
        return "image/jpeg";
    if (ends_with(path, ".svg"))
        return "image/svg+xml";
    return NULL;
}

/* An attribute that fetches something: an href (plain or xlink) or src not pointing inside the file. */
static bool external_ref(const xmlAttr *a, const char **value_out)
{
    const char *name = (const char *)a->name;
    if (strcmp(name, "href") && strcmp(name, "src"))
        return false;
    xmlChar *v = xmlNodeListGetString(a->doc, a->children, 1);
    bool external = v && v[0] != '#';
    static char kept[120];
    snprintf(kept, sizeof kept, "%s", v ? (const char *)v : "");
    *value_out = kept;
    xmlFree(v);
    return external;
}

/* The first thing in the tree at n that runs or fetches: a reason in why, false; else true. */
static bool svg_safe(const xmlNode *n, char *why, size_t whylen)
{
    for (; n; n = n->next) {
        if (n->type == XML_ENTITY_REF_NODE) {
            snprintf(why, whylen, "uses an entity (&%s;, line %d): an SVG figure declares none", n->name, n->line);
            return false;
        }
        if (n->type != XML_ELEMENT_NODE)
            continue;
        const char *name = (const char *)n->name;
        if (!strcasecmp(name, "script") || !strcasecmp(name, "foreignObject")) {
            snprintf(why, whylen, "holds a <%s> element (line %d): an SVG figure runs nothing", name, n->line);
            return false;
        }
        for (const xmlAttr *a = n->properties; a; a = a->next) {
            const char *value;
            if (!strncasecmp((const char *)a->name, "on", 2)) {
                snprintf(why, whylen, "has an event handler %s= on <%s> (line %d): an SVG figure runs nothing",
                         a->name, name, n->line);
                return false;
            }
            if (external_ref(a, &value)) {
                snprintf(why, whylen, "refers to '%s' outside itself (<%s>, line %d): an SVG figure is one file",
                         value, name, n->line);
                return false;
            }
        }
        if (!svg_safe(n->children, why, whylen))
            return false;
    }
    return true;
}

static bool svg_check(const unsigned char *bytes, size_t len, char *why, size_t whylen)
{
    if (len > (size_t)INT32_MAX) {
        snprintf(why, whylen, "is too large");
        return false;
    }
    xmlDocPtr doc = xmlReadMemory((const char *)bytes, (int)len, "image.svg", NULL,
                                  XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
    if (!doc) {
        const xmlError *e = xmlGetLastError();
        snprintf(why, whylen, "is not an SVG file: not well-formed XML (line %d: %s)", e ? e->line : 0,
                 e && e->message ? e->message : "?");
        size_t n = strlen(why);
        if (n && why[n - 1] == ')' && n > 2 && why[n - 2] == '\n') {
            why[n - 2] = ')';
            why[n - 1] = 0;
        }
        return false;
    }
    bool ok = true;
    const xmlNode *root = xmlDocGetRootElement(doc);
    if (!root || strcmp((const char *)root->name, "svg") || !root->ns ||
        strcmp((const char *)root->ns->href, "http://www.w3.org/2000/svg")) {
        snprintf(why, whylen, "is not an SVG file: its root is not <svg> in the SVG namespace");
        ok = false;
    } else if (doc->intSubset && (doc->intSubset->ExternalID || doc->intSubset->SystemID ||
                                  doc->intSubset->entities)) {
        snprintf(why, whylen, "has a DOCTYPE that declares entities or names a DTD: an SVG figure is one file");
        ok = false;
    } else {
        ok = svg_safe(root, why, whylen);
    }
    xmlFreeDoc(doc);
    return ok;
}

bool image_check_bytes(const char *mime, const unsigned char *bytes, size_t len, char *why, size_t whylen)
{
    static const unsigned char png[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n' };
    static const unsigned char jpeg[3] = { 0xFF, 0xD8, 0xFF };
    if (!strcmp(mime, "image/png") && !(len >= sizeof png && !memcmp(bytes, png, sizeof png))) {
        snprintf(why, whylen, "is not a PNG file (its first bytes are not PNG's signature)");
        return false;
    }
    if (!strcmp(mime, "image/jpeg") && !(len >= sizeof jpeg && !memcmp(bytes, jpeg, sizeof jpeg))) {
        snprintf(why, whylen, "is not a JPEG file (its first bytes are not JPEG's signature)");
        return false;
    }
    if (!strcmp(mime, "image/svg+xml"))
        return svg_check(bytes, len, why, whylen);
    return true;
}

void image_sha256(const unsigned char *bytes, size_t len, char hex[65])
{
    struct sha256_ctx ctx;
    uint8_t digest[SHA256_DIGEST_SIZE];
    sha256_init(&ctx);
    sha256_update(&ctx, len, bytes);
    sha256_digest(&ctx, sizeof digest, digest);
    for (size_t i = 0; i < sizeof digest; i++)
        snprintf(hex + 2 * i, 3, "%02x", digest[i]);
}
