/**
 * A minimal stand-in of Microsoft's AJAX library (MicrosoftAjax.js is not on
 * npm): only the functions the generated proxy at /api.asmx/js calls —
 * Type.registerNamespace, Function.prototype.registerClass and
 * initializeBase, Sys.Net.WebServiceProxy with set_path/get_path,
 * set_timeout/get_timeout, the default callbacks, _invoke and
 * _generateTypedConstructor. _invoke records its arguments in
 * `ajaxStandIn.invocations`, then hands them to `ajaxStandIn.send` when a
 * page sets one. Plain ES5, so it runs in a browser and in node:vm alike.
 */
export const AJAX_STAND_IN = `
var ajaxStandIn = { namespaces: [], registered: [], invocations: [], send: null };
var Type = {
  registerNamespace: function (name) {
    ajaxStandIn.namespaces.push(name);
    var scope = globalThis;
    name.split('.').forEach(function (part) { scope = scope[part] = scope[part] || {}; });
  }
};
Function.prototype.registerClass = function (name, base) {
  ajaxStandIn.registered.push(name);
  this.__typeName = name;
  if (base) Object.setPrototypeOf(this.prototype, base.prototype);
};
Function.prototype.initializeBase = function () {};
var Sys = { Net: {} };
Sys.Net.WebServiceProxy = function () {};
Sys.Net.WebServiceProxy.prototype = {
  set_path: function (value) { this._path = value; },
  get_path: function () { return this._path; },
  set_timeout: function (value) { this._timeout = value; },
  get_timeout: function () { return this._timeout; },
  set_defaultUserContext: function (value) { this._userContext = value; },
  get_defaultUserContext: function () { return this._userContext; },
  set_defaultSucceededCallback: function (value) { this._succeeded = value; },
  get_defaultSucceededCallback: function () { return this._succeeded; },
  set_defaultFailedCallback: function (value) { this._failed = value; },
  get_defaultFailedCallback: function () { return this._failed; },
  _invoke: function (servicePath, methodName, useGet, params, onSuccess, onFailure, userContext) {
    var call = { servicePath: servicePath, methodName: methodName, useGet: useGet, params: params,
                 onSuccess: onSuccess, onFailure: onFailure, userContext: userContext };
    ajaxStandIn.invocations.push(call);
    return ajaxStandIn.send ? ajaxStandIn.send(call) : call;
  }
};
Sys.Net.WebServiceProxy._generateTypedConstructor = function (type) {
  return function (properties) {
    for (var name in properties) this[name] = properties[name];
    this.__type = type;
  };
};
`;
