/**
 * The names a caller writes in a request's headers and query, as data: the handlers, the authorizer, the local
 * gateway, the stack's CORS and authorizer, and the OpenAPI document all read them from here.
 */

/** The tenant's API key, checked by each API's authorizer. */
export const API_KEY_HEADER = 'x-service-api-key';
/** A user token, in this header. */
export const USER_TOKEN_HEADER = 'x-service-user-token';
/**
 * The user token as a query parameter: taken only where the seed's clients send it (RouteSpec userTokenInQuery),
 * refused in any other URL.
 */
export const USER_TOKEN_QUERY = 'token';
