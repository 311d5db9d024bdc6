import { buildContractModel } from './codegen/build-model';
import { emitClasses } from './codegen/emit/classes';
buildContractModel('schema/api.wsdl').then((m) => console.log(emitClasses(m)));
