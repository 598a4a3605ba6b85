import { createSearchParamsCache, createSerializer, type ParserMap } from "nuqs/server";

/**
 * A page's URL state from its parsers: the cache its server page reads them through, and the
 * serializer of the links that open the page (state left at its default stays out of the URL).
 */
export function urlState<P extends ParserMap>(parsers: P) {
  return { cache: createSearchParamsCache(parsers), serialize: createSerializer(parsers) };
}
