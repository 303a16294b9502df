/**
 * @mediapipe/face_mesh's wasm glue without eval (issue 29). Its emscripten is older than pose's and
 * hands', and its embind builds three kinds of functions from strings: named wrappers
 * (createNamedFunction), the invokers of bound C++ functions (craftInvokerFunction) and the callers
 * of JS methods from C++ (__emval_get_method_caller). The page's policy has no 'unsafe-eval'
 * (main/services/contentSecurity.ts), so those throw and the face model never starts.
 *
 * Emscripten's own DYNAMIC_EXECUTION=0 build (the one pose and hands ship) does the same work with
 * closures that call the invoker with the argument list; this swaps each of the three for such a
 * closure, with the generated function's name (and length) set by Object.defineProperty. One
 * difference from emscripten's: the argument and destructor lists are made per call, so a bound
 * function that calls back into itself does not overwrite its caller's arguments.
 *
 * The build (electron.vite.config.ts) serves the patched files in place of the package's; it fails
 * when a function to replace is not found once, or when code generation is left in the result.
 */

/** The replacement of each function, by its name in the glue (the body keeps the glue's helpers' names). */
const REPLACEMENTS: Readonly<Record<string, string>> = {
  createNamedFunction: `function createNamedFunction(name,body){name=makeLegalFunctionName(name);
var f=function(){"use strict";return body.apply(this,arguments)};
Object.defineProperty(f,"name",{value:name});return f}`,

  craftInvokerFunction: `function craftInvokerFunction(humanName,argTypes,classType,cppInvokerFunc,cppTargetFunc){
var argCount=argTypes.length;
if(argCount<2){throwBindingError("argTypes array size mismatch! Must at least get return value and 'this' types!")}
var isClassMethodFunc=argTypes[1]!==null&&classType!==null;
var needsDestructorStack=false;
for(var i=1;i<argTypes.length;++i){if(argTypes[i]!==null&&argTypes[i].destructorFunction===undefined){needsDestructorStack=true;break}}
var returns=argTypes[0].name!=="void";
var expected=argCount-2;
var first=isClassMethodFunc?2:1;
var invoker=function(){
if(arguments.length!==expected){throwBindingError("function "+humanName+" called with "+arguments.length+" arguments, expected "+expected+" args!")}
var destructors=needsDestructorStack?[]:null;
var wired=[cppTargetFunc];
if(isClassMethodFunc){wired.push(argTypes[1].toWireType(destructors,this))}
for(var i=0;i<expected;++i){wired.push(argTypes[i+2].toWireType(destructors,arguments[i]))}
var rv=cppInvokerFunc.apply(null,wired);
if(needsDestructorStack){runDestructors(destructors)}else{
for(var i=isClassMethodFunc?1:2;i<argTypes.length;++i){var dtor=argTypes[i].destructorFunction;if(dtor!==null){dtor(i===1?wired[1]:wired[first+i-2])}}}
if(returns){return argTypes[0].fromWireType(rv)}};
Object.defineProperty(invoker,"name",{value:makeLegalFunctionName(humanName)});
Object.defineProperty(invoker,"length",{value:expected});
return invoker}`,

  __emval_get_method_caller: `function __emval_get_method_caller(argCount,argTypes){
var types=__emval_lookupTypes(argCount,argTypes);var retType=types[0];
var signatureName=retType.name+"_$"+types.slice(1).map(function(t){return t.name}).join("_")+"$";
var caller=function(handle,name,destructors,args){
var offset=0;var values=new Array(argCount-1);
for(var i=0;i<argCount-1;++i){values[i]=types[i+1].readValueFromPointer(args+offset);offset+=types[i+1]["argPackAdvance"]}
var rv=handle[name].apply(handle,values);
for(var i=0;i<argCount-1;++i){if(types[i+1]["deleteObject"]){types[i+1].deleteObject(values[i])}}
if(!retType.isVoid){return retType.toWireType(destructors,rv)}};
Object.defineProperty(caller,"name",{value:makeLegalFunctionName("methodCaller_"+signatureName)});
return __emval_addMethodCaller(caller)}`,
};

/** What code generation from strings looks like in this glue; none of it may be left. */
export const CODE_FROM_STRINGS: readonly RegExp[] = [/new Function\s*\(/, /new_\(\s*Function\b/, /(^|[^\w$.])eval\s*\(/];

/** Where the declaration `function NAME(` starting at `start` ends (just after its closing brace). */
function declarationEnd(source: string, start: number): number {
  let depth = 0;
  for (let i = source.indexOf('{', start); i < source.length; i++) {
    const c = source[i];
    if (c === '"' || c === "'" || c === '`') {
      // Strings of the generated bodies hold braces ("{\n"); skip them whole, escapes included.
      for (i++; i < source.length && source[i] !== c; i++) if (source[i] === '\\') i++;
    } else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return i + 1;
  }
  throw new Error(`evalFreeEmbind: the function at ${start} does not end`);
}

/** The glue with the three embind functions replaced; throws if the glue is not the one expected. */
export function evalFreeEmbind(glue: string): string {
  let out = glue;
  for (const [name, replacement] of Object.entries(REPLACEMENTS)) {
    const head = `function ${name}(`;
    const at = out.indexOf(head);
    if (at < 0 || out.indexOf(head, at + 1) >= 0) throw new Error(`evalFreeEmbind: expected one ${head}…} in the glue, found ${at < 0 ? 0 : 'several'}`);
    out = out.slice(0, at) + replacement + out.slice(declarationEnd(out, at));
  }
  const left = CODE_FROM_STRINGS.find((re) => re.test(out));
  if (left) throw new Error(`evalFreeEmbind: code generation from strings is left in the glue (${left})`);
  return out;
}
