/**
 * What the GraphQL schema does not describe yet, one schema coordinate per
 * entry (Type, Type.field, Type.field(argument:), Enum.VALUE). As a script,
 * lists them, optionally for some types only:
 *
 *   npx tsx test/support/undescribed.ts [TypeName…]
 */
import { isEnumType, isInputObjectType, isInterfaceType, isObjectType } from 'graphql';
import { schema } from '../../src/graphql/schema.ts';

const BUILT_IN = new Set(['String', 'Int', 'Float', 'Boolean', 'ID']);

export function undescribed(types?: ReadonlySet<string>): string[] {
  const missing: string[] = [];
  for (const type of Object.values(schema.getTypeMap())) {
    if (type.name.startsWith('__') || BUILT_IN.has(type.name) || (types?.size && !types.has(type.name))) continue;
    if (!type.description) missing.push(type.name);
    if (isObjectType(type) || isInterfaceType(type)) {
      for (const field of Object.values(type.getFields())) {
        if (!field.description) missing.push(`${type.name}.${field.name}`);
        for (const argument of field.args) if (!argument.description) missing.push(`${type.name}.${field.name}(${argument.name}:)`);
      }
    } else if (isInputObjectType(type)) {
      for (const field of Object.values(type.getFields())) if (!field.description) missing.push(`${type.name}.${field.name}`);
    } else if (isEnumType(type)) {
      for (const value of type.getValues()) if (!value.description) missing.push(`${type.name}.${value.name}`);
    }
  }
  return missing;
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(undescribed(new Set(process.argv.slice(2))).join('\n'));
